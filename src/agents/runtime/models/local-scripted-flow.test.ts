import { generateText, streamText, tool, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createLocalScriptedModel } from "./local-scripted";

const model = createLocalScriptedModel();

describe("local:scripted and approvals", () => {
  const makeTools = (runs: unknown[]) => ({
    refund: tool({
      inputSchema: z.object({ orderId: z.string() }),
      needsApproval: true,
      execute: async (input) => (runs.push(input), "refunded"),
    }),
  });

  async function askForRefund(runs: unknown[]) {
    const messages: ModelMessage[] = [{ role: "user", content: 'Refund it [call refund {"orderId":"A1"}]' }];
    const first = await generateText({ model, messages, tools: makeTools(runs) });
    const request = first.content.find((part) => part.type === "tool-approval-request");
    expect(request).toBeDefined();
    expect(runs).toEqual([]);
    return { messages: [...messages, ...first.response.messages], approvalId: request!.approvalId };
  }

  it("parks a needsApproval call, then reports the result once it is approved", async () => {
    const runs: unknown[] = [];
    const { messages, approvalId } = await askForRefund(runs);
    const approved: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-approval-response", approvalId, approved: true }],
    };
    const second = await generateText({ model, messages: [...messages, approved], tools: makeTools(runs) });
    expect(runs).toEqual([{ orderId: "A1" }]);
    expect(second.text).toBe("The refund tool returned: refunded.");
  });

  it("says the call was denied when it is", async () => {
    const runs: unknown[] = [];
    const { messages, approvalId } = await askForRefund(runs);
    const denied: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-approval-response", approvalId, approved: false, reason: "too large" }],
    };
    const second = await generateText({ model, messages: [...messages, denied], tools: makeTools(runs) });
    expect(runs).toEqual([]);
    expect(second.text).toBe("The refund call was denied: too large.");
  });
});

describe("local:scripted pacing", () => {
  it("spaces its stream parts by chunkDelayMs, and stops when aborted mid-stream", async () => {
    const paced = createLocalScriptedModel({ chunkDelayMs: 25 });
    const started = Date.now();
    const full = streamText({ model: paced, prompt: "one two three four five six" });
    let deltas = 0;
    for await (const part of full.fullStream) if (part.type === "text-delta") deltas++;
    expect(deltas).toBeGreaterThan(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25 * deltas);

    const controller = new AbortController();
    const cut = streamText({ model: paced, prompt: "one two three four five six", abortSignal: controller.signal });
    const types: string[] = [];
    for await (const part of cut.fullStream) {
      types.push(part.type);
      if (part.type === "reasoning-delta") controller.abort();
    }
    expect(types).toContain("abort");
    expect(types).not.toContain("text-delta");
  });
});
