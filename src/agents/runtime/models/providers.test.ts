// Each provider's model path end to end: resolveModel builds the real SDK model, streamText drives it,
// and a local fake of the provider's HTTP API answers in that provider's own server-sent events.
// Nothing above the socket is mocked, so a change in request shape, stream parsing, usage or error
// mapping — ours or the SDK's — fails here. What differs per provider is in providers.test-cases.ts.
import { APICallError, jsonSchema, streamText, tool, type ModelMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import {
  startProviderFake,
  thinkingSignature,
  type FakeScript,
  type JsonBody,
  type ProviderFake,
} from "@/testing/provider-fakes";
import { resolveModel } from "./resolve-model";
import { cases, question, weatherInput, weatherResult, weatherSchema, type ProviderCase } from "./providers.test-cases";

// No execute: the call comes back to the caller, as Agentfold's approval-gated tools do.
const tools = {
  get_weather: tool({
    description: "Current weather in a city",
    inputSchema: jsonSchema<{ city: string; unit?: "celsius" | "fahrenheit" }>(weatherSchema),
  }),
};

let fake: ProviderFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function modelFor(providerCase: ProviderCase, script: FakeScript) {
  fake = await startProviderFake({ provider: providerCase.provider, script });
  return { fake, model: resolveModel(providerCase.modelId, providerCase.settings(fake.baseUrl)) };
}

async function partsOf(stream: AsyncIterable<{ type: string }>) {
  const parts: { type: string; [key: string]: unknown }[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

function deltas(parts: { type: string; text?: unknown }[], type: "text-delta" | "reasoning-delta"): string[] {
  return parts.filter((part) => part.type === type && part.text !== "").map((part) => String(part.text));
}

describe.each(cases)("$provider", (providerCase) => {
  it("streams text in several deltas from the configured base URL", async () => {
    const { fake, model } = await modelFor(providerCase, () => ({ text: ["Hello", " from", " the fake."] }));
    const result = streamText({ model, system: "Be brief.", prompt: "Say hello", maxRetries: 0 });
    const parts = await partsOf(result.fullStream);

    expect(deltas(parts, "text-delta")).toEqual(["Hello", " from", " the fake."]);
    expect(await result.text).toBe("Hello from the fake.");
    expect(await result.finishReason).toBe("stop");
    const [request, ...others] = fake.requests;
    expect(others).toEqual([]);
    expect(request!.path).toBe(providerCase.textRequest.path);
    for (const [name, value] of Object.entries(providerCase.textRequest.headers))
      expect(request!.headers[name]).toBe(value);
    expect(request!.body).toMatchObject(providerCase.textRequest.body);
  });

  it("returns a tool call without execute, its input streamed in fragments, and sends the result back", async () => {
    const { fake, model } = await modelFor(providerCase, (_body, index) =>
      index === 0
        ? { toolCalls: [{ id: providerCase.toolCallId, name: "get_weather", input: weatherInput }] }
        : { text: ["It is 21 °C", " in Oslo."] },
    );
    const messages: ModelMessage[] = [{ role: "user", content: question }];
    const first = streamText({ model, messages, tools, maxRetries: 0 });
    const parts = await partsOf(first.fullStream);

    expect(parts.filter((part) => part.type === "tool-input-delta").length).toBeGreaterThan(1);
    expect(parts.filter((part) => part.type === "tool-call")).toMatchObject([
      { toolCallId: providerCase.toolCallId, toolName: "get_weather", input: weatherInput },
    ]);
    expect(await first.finishReason).toBe("tool-calls");
    expect(fake.requests[0]!.body.tools).toMatchObject([providerCase.toolDeclaration]);

    const toolResult: ModelMessage = {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: providerCase.toolCallId,
          toolName: "get_weather",
          output: { type: "json", value: weatherResult },
        },
      ],
    };
    const second = streamText({
      model,
      messages: [...messages, ...(await first.response).messages, toolResult],
      tools,
      maxRetries: 0,
    });

    expect(await second.text).toBe("It is 21 °C in Oslo.");
    expect(providerCase.conversation(fake.requests[1]!.body)).toMatchObject(providerCase.toolExchange);
  });

  it("maps usage, including cached input and reasoning tokens", async () => {
    const { model } = await modelFor(providerCase, () => ({ text: ["Hi", "."], usage: providerCase.usage }));
    const result = streamText({ model, prompt: "Say hi", maxRetries: 0 });
    await result.consumeStream();
    const usage = await result.totalUsage;

    expect(usage).toMatchObject(providerCase.expectedUsage);
    expect(usage.raw).toEqual(providerCase.rawUsage);
  });

  it("streams reasoning as reasoning deltas before the text", async () => {
    const { fake, model } = await modelFor(providerCase, () => ({
      reasoning: ["Oslo is ", "in Norway."],
      text: ["Cold."],
    }));
    const result = streamText({
      model,
      prompt: question,
      providerOptions: providerCase.reasoningOptions,
      maxRetries: 0,
    });
    const parts = await partsOf(result.fullStream);

    expect(deltas(parts, "reasoning-delta")).toEqual(["Oslo is ", "in Norway."]);
    expect(parts.findIndex((part) => part.type === "reasoning-delta")).toBeLessThan(
      parts.findIndex((part) => part.type === "text-delta"),
    );
    expect(await result.reasoningText).toBe("Oslo is in Norway.");
    expect(await result.text).toBe("Cold.");
    expect(fake.requests[0]!.body).toMatchObject(providerCase.reasoningRequest);
  });

  it.each([
    [401, "Invalid API key provided."],
    [429, "Rate limit reached for requests per minute."],
    [500, "The server had an error while processing your request."],
  ])("surfaces HTTP %i with the provider's message", async (status, message) => {
    const { fake, model } = await modelFor(providerCase, () => ({ error: { status, message } }));
    // Asserted from the stream, as run-turn handles it; onError only silences the SDK's console log.
    const result = streamText({ model, prompt: "Say hello", maxRetries: 0, onError: () => undefined });
    const parts = await partsOf(result.fullStream);

    const errors = parts.filter((part) => part.type === "error").map((part) => part.error);
    expect(errors).toHaveLength(1);
    const error = errors[0];
    expect(APICallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: status, message, isRetryable: status !== 401 });
    expect(parts.some((part) => part.type === "text-delta")).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });
});

describe("anthropic extended thinking", () => {
  const anthropic = cases.find((providerCase) => providerCase.provider === "anthropic")!;

  it("keeps the thinking block's signature and sends the signed block back with the tool result", async () => {
    const { fake, model } = await modelFor(anthropic, (_body, index) =>
      index === 0
        ? {
            reasoning: ["Need the ", "forecast."],
            toolCalls: [{ id: anthropic.toolCallId, name: "get_weather", input: weatherInput }],
          }
        : { text: ["21 °C."] },
    );
    const messages: ModelMessage[] = [{ role: "user", content: question }];
    const options = { model, tools, providerOptions: anthropic.reasoningOptions, maxRetries: 0 };
    const first = streamText({ ...options, messages });
    await first.consumeStream();

    expect((await first.reasoning).map((part) => part.providerMetadata?.anthropic?.signature)).toEqual([
      thinkingSignature(0),
    ]);
    const toolResult: ModelMessage = {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: anthropic.toolCallId,
          toolName: "get_weather",
          output: { type: "json", value: weatherResult },
        },
      ],
    };
    const second = streamText({ ...options, messages: [...messages, ...(await first.response).messages, toolResult] });

    expect(await second.text).toBe("21 °C.");
    // The API rejects a tool result whose preceding thinking block comes back unsigned or altered.
    expect((fake.requests[1]!.body.messages as JsonBody[])[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Need the forecast.", signature: thinkingSignature(0) },
        { type: "tool_use", id: anthropic.toolCallId, name: "get_weather", input: weatherInput },
      ],
    });
  });
});
