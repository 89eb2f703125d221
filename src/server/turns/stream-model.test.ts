// streamModel must report a step exactly as the AI SDK's streamText does: the same deltas, tool
// calls (valid and invalid), response messages and usage. Each case runs both on the same
// provider stream and compares.
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { jsonSchema, streamText, tool, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { streamModel } from "./stream-model";

const usage = {
  inputTokens: { total: 12, noCache: 4, cacheRead: 8, cacheWrite: 0 },
  outputTokens: { total: 30, text: 10, reasoning: 20 },
};
const finish: LanguageModelV3StreamPart = {
  type: "finish",
  usage,
  finishReason: { unified: "tool-calls", raw: "tool_use" },
};
const signature = { anthropic: { signature: "sig-1" } };

function modelStreaming(parts: LanguageModelV3StreamPart[]): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "test",
    modelId: "parts",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("streams only")),
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  };
}

const tools = {
  lookup: tool({
    description: "Looks up an order",
    inputSchema: jsonSchema({ type: "object", properties: { orderId: { type: "string" } } }),
  }),
};
const messages: ModelMessage[] = [{ role: "user", content: "hello" }];

async function viaStreamText(parts: LanguageModelV3StreamPart[]) {
  const result = streamText({
    model: modelStreaming(parts),
    system: "Be brief.",
    messages,
    tools,
    maxRetries: 0,
    onError: () => undefined,
  });
  const seen: unknown[] = [];
  for await (const part of result.fullStream) {
    if (part.type === "text-delta" || part.type === "reasoning-delta") seen.push({ type: part.type, text: part.text });
    else if (part.type === "reasoning-end") seen.push({ type: "reasoning-end" });
    else if (part.type === "tool-call")
      seen.push({
        type: "tool-call",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input,
        invalid: part.invalid ? (part.error as Error).message : undefined,
      });
    else if (part.type === "error") return { seen, error: (part.error as Error).message };
  }
  const [totalUsage, response] = await Promise.all([result.totalUsage, result.response]);
  // streamText answers invalid calls itself in a tool message; the turn loop answers every call.
  return { seen, usage: totalUsage, response: response.messages.filter((message) => message.role === "assistant") };
}

async function viaStreamModel(parts: LanguageModelV3StreamPart[]) {
  const seen: unknown[] = [];
  try {
    const stream = streamModel({
      model: modelStreaming(parts),
      system: "Be brief.",
      messages,
      tools,
      signal: new AbortController().signal,
      maxRetries: 0,
    });
    let next = await stream.next();
    for (; !next.done; next = await stream.next()) {
      const part = next.value;
      seen.push(part.type === "tool-call" ? { ...part, invalid: part.invalid?.message } : part);
    }
    return { seen, usage: next.value.usage, response: next.value.response };
  } catch (error) {
    return { seen, error: (error as Error).message };
  }
}

async function expectSame(parts: LanguageModelV3StreamPart[]) {
  const [expected, actual] = await Promise.all([viaStreamText(parts), viaStreamModel(parts)]);
  expect(actual).toEqual(expected);
  return actual;
}

describe("streamModel", () => {
  it("reports reasoning (with its signature), text blocks and a tool call as streamText does", async () => {
    const actual = await expectSame([
      { type: "stream-start", warnings: [] },
      { type: "response-metadata", id: "resp-1", modelId: "parts" },
      { type: "reasoning-start", id: "r0" },
      { type: "reasoning-delta", id: "r0", delta: "Let me " },
      { type: "reasoning-delta", id: "r0", delta: "think." },
      { type: "reasoning-end", id: "r0", providerMetadata: signature },
      { type: "text-start", id: "t0" },
      { type: "text-delta", id: "t0", delta: "Looking " },
      { type: "text-delta", id: "t0", delta: "" },
      { type: "text-delta", id: "t0", delta: "it up." },
      { type: "text-end", id: "t0" },
      { type: "reasoning-start", id: "r1", providerMetadata: { anthropic: { redactedData: "xyz" } } },
      { type: "reasoning-end", id: "r1" },
      { type: "tool-input-start", id: "call-1", toolName: "lookup" },
      { type: "tool-input-delta", id: "call-1", delta: '{"orderId":"A1"}' },
      { type: "tool-input-end", id: "call-1" },
      {
        type: "tool-call",
        toolCallId: "call-1",
        toolName: "lookup",
        input: '{"orderId":"A1"}',
        providerMetadata: { openai: { itemId: "fc_1" } },
      },
      finish,
    ]);
    // Not vacuous: the comparison covered a signed reasoning block, text and a call.
    expect(actual.response).toMatchObject([
      {
        role: "assistant",
        content: [
          { type: "reasoning", providerOptions: signature },
          { type: "text", text: "Looking it up." },
          { type: "reasoning" },
          { type: "tool-call", input: { orderId: "A1" } },
        ],
      },
    ]);
    expect(actual.usage).toMatchObject({
      inputTokens: 12,
      outputTokens: 30,
      inputTokenDetails: { cacheReadTokens: 8 },
      outputTokenDetails: { reasoningTokens: 20 },
    });
  });

  it("marks calls of unknown tools and calls with unparseable input invalid, as streamText does; empty input is {}", async () => {
    const actual = await expectSame([
      { type: "tool-call", toolCallId: "c1", toolName: "nope", input: '{"a":1}' },
      { type: "tool-call", toolCallId: "c2", toolName: "lookup", input: "{not json" },
      { type: "tool-call", toolCallId: "c3", toolName: "lookup", input: "  " },
      { type: "tool-call", toolCallId: "c4", toolName: "nope", input: "{not json either" },
      { type: "tool-call", toolCallId: "c5", toolName: "lookup", input: '{"__proto__":{"isAdmin":true}}' },
      finish,
    ]);
    expect(actual.seen).toMatchObject([
      { invalid: expect.stringContaining("nope") },
      { invalid: expect.stringContaining("lookup") },
      { input: {} },
      { input: "{not json either" },
      { invalid: expect.stringContaining("lookup") },
    ]);
  });

  it("keeps a generated file and drops an empty text block", async () => {
    const actual = await expectSame([
      { type: "text-start", id: "t0" },
      { type: "text-end", id: "t0" },
      { type: "file", mediaType: "image/png", data: new Uint8Array([137, 80, 78, 71]) },
      { type: "file", mediaType: "text/plain", data: "aGk=" },
      { ...finish, finishReason: { unified: "stop", raw: "stop" } },
    ]);
    expect(actual.response).toEqual([
      {
        role: "assistant",
        content: [
          { type: "file", data: "iVBORw==", mediaType: "image/png" },
          { type: "file", data: "aGk=", mediaType: "text/plain" },
        ],
      },
    ]);
  });

  it("fails on a streamed provider error after the deltas before it", async () => {
    const actual = await expectSame([
      { type: "text-start", id: "t0" },
      { type: "text-delta", id: "t0", delta: "Partial" },
      { type: "error", error: new Error("overloaded") },
    ]);
    expect(actual).toEqual({ seen: [{ type: "text-delta", text: "Partial" }], error: "overloaded" });
  });

  it("fails on a stream that ends with neither output nor its finish part, and takes output without one, as streamText does", async () => {
    expect(await expectSame([{ type: "stream-start", warnings: [] }])).toMatchObject({
      seen: [],
      error: expect.stringContaining("without a finish chunk"),
    });
    expect(
      await expectSame([
        { type: "text-start", id: "t0" },
        { type: "text-delta", id: "t0", delta: "Cut" },
      ]),
    ).toMatchObject({ seen: [{ type: "text-delta", text: "Cut" }], response: [{ role: "assistant" }] });
  });

  it("refuses an empty conversation, as streamText does", async () => {
    const parts = streamModel({
      model: modelStreaming([finish]),
      messages: [],
      signal: new AbortController().signal,
      maxRetries: 0,
    });
    await expect(parts.next()).rejects.toThrow("messages must not be empty");
  });

  it("stops at once when stopped before the provider answered", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stopped early"));
    const parts = streamModel({
      model: modelStreaming([
        { type: "text-start", id: "t0" },
        { type: "text-delta", id: "t0", delta: "never" },
        finish,
      ]),
      messages,
      signal: controller.signal,
      maxRetries: 0,
    });
    await expect(parts.next()).rejects.toThrow("stopped early");
  });

  it("stops with the signal's reason when aborted mid-stream, and cancels the provider's stream", async () => {
    const controller = new AbortController();
    let isCancelled = false;
    const model: LanguageModelV3 = {
      ...modelStreaming([]),
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(stream) {
            stream.enqueue({ type: "text-start", id: "t0" });
            stream.enqueue({ type: "text-delta", id: "t0", delta: "one" });
          },
          cancel: () => void (isCancelled = true),
        }),
      }),
    };
    const seen: string[] = [];
    const run = (async () => {
      for await (const part of streamModel({ model, messages, signal: controller.signal, maxRetries: 0 })) {
        if (part.type === "text-delta") seen.push(part.text);
        controller.abort(new Error("stopped"));
      }
    })();
    await expect(run).rejects.toThrow("stopped");
    expect(seen).toEqual(["one"]);
    expect(isCancelled).toBe(true);
  });
});
