// A turn on a real provider path: the engine talks to a local HTTP fake of Anthropic's Messages
// API (streamed responses of the real shape). The tool call, its result sent back, and the
// turn's usage and cost all go through the same code as with the real service.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { modelCost } from "@/agents/runtime/models/prices";
import type { AgentRef } from "@/server/sessions/start-session";
import { engineAgent } from "@/testing/engine-agents";
import { startProviderFake, type ProviderFake } from "@/testing/provider-fakes";
import { ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

let fake: ProviderFake;
let h: Harness;
let agent: AgentRef;

beforeAll(async () => {
  fake = await startProviderFake({
    provider: "anthropic",
    script: (_body, index) =>
      index === 0
        ? {
            reasoning: ["The user wants ", "order A1."],
            toolCalls: [{ id: "toolu_01", name: "lookup", input: { orderId: "A1" } }],
            usage: { inputTokens: 120, cacheReadTokens: 100, outputTokens: 30 },
          }
        : {
            text: ["Order A1 ", "has shipped."],
            usage: { inputTokens: 200, cacheReadTokens: 100, cacheWriteTokens: 50, outputTokens: 12 },
          },
  });
  h = await startTurnHarness({
    databaseUrl: inject("databaseUrl"),
    models: { anthropicApiKey: "test-key", anthropicBaseUrl: fake.baseUrl },
  });
  agent = await h.deploy("claude", {
    ...engineAgent,
    "bot/agent.ts":
      'import { defineAgent } from "agentfold";\nexport default defineAgent({ model: "anthropic:claude-sonnet-4-5" });\n',
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
  await fake?.close();
});

describe("a turn on Anthropic's API (local fake)", () => {
  it("calls the tool the model asked for, sends the result back, and reports usage and cost", async () => {
    const started = await h.start(agent, { message: "Where is order A1?" });
    const log = await h.eventsUntil(started.sessionId, (l) => l.some((e) => e.type === "session.waiting"));
    expect(ofType(log, "reasoning.completed")[0]!.data.text).toBe("The user wants order A1.");
    expect(ofType(log, "actions.requested")[0]!.data.calls).toEqual([
      { callId: "toolu_01", toolName: "lookup", args: { orderId: "A1" } },
    ]);
    expect(ofType(log, "action.result")[0]!.data.output).toEqual({ orderId: "A1", status: "shipped" });
    expect(ofType(log, "message.completed")[0]!.data.text).toBe("Order A1 has shipped.");

    const second = fake.requests[1]!.body as {
      system?: unknown;
      messages: { role: string; content: { type: string; tool_use_id?: string; content?: unknown }[] }[];
    };
    const toolResult = second.messages.at(-1)!.content.find((part) => part.type === "tool_result");
    expect(toolResult).toMatchObject({ tool_use_id: "toolu_01", content: expect.stringContaining("shipped") });
    expect(JSON.stringify(fake.requests[0]!.body.system)).toContain("You are the engine test agent.");

    const { usage, cost } = ofType(log, "turn.completed")[0]!.data;
    expect(usage).toEqual({ inputTokens: 320, outputTokens: 42, cacheReadTokens: 200, cacheWriteTokens: 50 });
    const expected =
      modelCost("anthropic:claude-sonnet-4-5", {
        inputTokens: 120,
        outputTokens: 30,
        cacheReadTokens: 100,
        cacheWriteTokens: 0,
      })!.totalUsd +
      modelCost("anthropic:claude-sonnet-4-5", {
        inputTokens: 200,
        outputTokens: 12,
        cacheReadTokens: 100,
        cacheWriteTokens: 50,
      })!.totalUsd;
    expect(cost).toEqual({ totalUsd: expect.closeTo(expected, 12), model: "anthropic:claude-sonnet-4-5" });
    expect(cost!.totalUsd).toBeGreaterThan(0);
  });
});
