// An agent's params reach the provider's HTTP API: chooseModel maps them, resolveModel attaches them,
// and a local fake of each provider records the request the real SDK sent.
import { streamText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { startProviderFake, type ProviderFake } from "@/testing/provider-fakes";
import { chooseModel } from "./model-choice";
import { resolveModel } from "./resolve-model";

let fake: ProviderFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const routing = { defaultModel: "local:scripted", aliases: { "grok-4.5": "xai:grok-4" } };
const effortHigh = [{ id: "effort", value: "high" as const }];

async function send(
  modelId: string,
  providerOptions: ReturnType<typeof chooseModel>["providerOptions"],
  settings = {},
) {
  const result = streamText({
    model: resolveModel(modelId, settings, providerOptions),
    prompt: "Say hello",
    maxRetries: 0,
  });
  return result.text;
}

describe("model params on the wire", () => {
  it("sends a Cursor id through its alias to xAI, with effort as reasoning_effort", async () => {
    fake = await startProviderFake({ provider: "xai", script: () => ({ text: ["Hi", " there."] }) });
    const choice = chooseModel({ id: "grok-4.5", params: effortHigh }, routing);
    const text = await send(choice.id, choice.providerOptions, { xaiApiKey: "xai-test", xaiBaseUrl: fake.baseUrl });

    expect(text).toBe("Hi there.");
    const [request] = fake.requests;
    expect(request!.path).toBe("/v1/chat/completions");
    expect(request!.headers.authorization).toBe("Bearer xai-test");
    expect(request!.body).toMatchObject({ model: "grok-4", reasoning_effort: "high" });
  });

  it("sends effort to OpenAI's Responses API as reasoning.effort", async () => {
    fake = await startProviderFake({ provider: "openai", script: () => ({ text: ["Hi."] }) });
    const choice = chooseModel({ id: "openai:gpt-5", params: effortHigh }, routing);
    await send(choice.id, choice.providerOptions, { openaiApiKey: "sk-test", openaiBaseUrl: fake.baseUrl });

    expect(fake.requests[0]!.body).toMatchObject({ model: "gpt-5", reasoning: { effort: "high" } });
  });

  it("sends effort to an OpenAI-compatible server as reasoning_effort", async () => {
    fake = await startProviderFake({ provider: "openai-compatible", script: () => ({ text: ["Hi."] }) });
    const choice = chooseModel({ id: "openai-compatible:qwen3", params: effortHigh }, routing);
    await send(choice.id, choice.providerOptions, { openaiCompatibleBaseUrl: fake.baseUrl });

    expect(fake.requests[0]!.body).toMatchObject({ model: "qwen3", reasoning_effort: "high" });
  });

  it("sends no options for params a provider does not take", async () => {
    fake = await startProviderFake({ provider: "xai", script: () => ({ text: ["Hi."] }) });
    const choice = chooseModel({ id: "xai:grok-4", params: [{ id: "context", value: "1m" }] }, routing);
    await send(choice.id, choice.providerOptions, { xaiApiKey: "xai-test", xaiBaseUrl: fake.baseUrl });

    expect(choice.providerOptions).toBeUndefined();
    expect(Object.keys(fake.requests[0]!.body)).not.toContain("reasoning_effort");
    expect(Object.keys(fake.requests[0]!.body)).not.toContain("context");
  });
});
