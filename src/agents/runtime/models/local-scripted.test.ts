import { generateText, stepCountIs, streamText, tool, type StopCondition, type ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createLocalScriptedModel } from "./local-scripted";

const model = createLocalScriptedModel();

type CollectOptions = { tools?: ToolSet; stopWhen?: StopCondition<ToolSet>; abortSignal?: AbortSignal };

async function collect(prompt: string, options: CollectOptions = {}) {
  const errors: unknown[] = [];
  const result = streamText({ model, prompt, onError: ({ error }) => void errors.push(error), ...options });
  const parts: { type: string }[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return { result, parts, errors, types: parts.map((part) => part.type) };
}

const lookup = (seen: unknown[] = []) =>
  tool({
    description: "Looks a person up",
    inputSchema: z.object({ id: z.number() }),
    execute: async (input) => (seen.push(input), { name: "Ada Lovelace" }),
  });

describe("local:scripted through streamText", () => {
  it("streams a short reasoning block, then the echoed text, in several deltas", async () => {
    const { result, types } = await collect("Hello there, how are you today?");
    const reasoningDeltas = types.filter((type) => type === "reasoning-delta").length;
    const textDeltas = types.filter((type) => type === "text-delta").length;
    expect(reasoningDeltas).toBeGreaterThan(1);
    expect(textDeltas).toBeGreaterThan(1);
    expect(types.lastIndexOf("reasoning-end")).toBeLessThan(types.indexOf("text-start"));
    expect(await result.text).toBe(
      'You said: "Hello there, how are you today?". I am the offline scripted model; configure a provider for real answers.',
    );
    expect(await result.reasoningText).toMatch(/^The user wrote 6 words\./);
    expect(await result.finishReason).toBe("stop");
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(6);
    expect(usage.outputTokens).toBe(usage.outputTokenDetails.textTokens! + usage.outputTokenDetails.reasoningTokens!);
    expect(usage.outputTokenDetails.textTokens).toBe((await result.text).split(" ").length);
  });

  it("answers generateText with the same content, and the same way every time", async () => {
    const streamed = await collect("Same words [reason off] twice");
    const first = await generateText({ model, prompt: "Same words [reason off] twice" });
    const second = await generateText({ model, prompt: "Same words [reason off] twice" });
    expect(first.text).toBe(await streamed.result.text);
    expect(first.text).toContain('You said: "Same words twice".');
    expect(first.reasoningText).toBeUndefined();
    expect(streamed.types).not.toContain("reasoning-delta");
    expect(second.text).toBe(first.text);
    expect(second.usage).toEqual(first.usage);
  });

  it("waits out [delay] before streaming", async () => {
    const started = Date.now();
    const { result } = await collect("slow [delay 300] reply");
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(await result.text).toContain('You said: "slow reply".');
  });

  it("stops promptly when the call is aborted during a delay", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const { types } = await collect("[delay 5s] never", { abortSignal: controller.signal });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(types).toContain("abort");
    expect(types).not.toContain("text-delta");
    await expect(generateText({ model, prompt: "[delay 2s]", abortSignal: AbortSignal.timeout(20) })).rejects.toThrow();
  });

  it("fails the call with the message of [fail: …]", async () => {
    const { errors, types } = await collect("please [fail: boom]");
    expect(types).toContain("error");
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe("boom");
    await expect(generateText({ model, prompt: "[fail: boom]" })).rejects.toThrow("boom");
    await expect(generateText({ model, prompt: "[fail]" })).rejects.toThrow("scripted failure");
  });
});

describe("local:scripted tool calls", () => {
  it("calls a real tool for [call …] and reports its result in the next step", async () => {
    const seen: unknown[] = [];
    const { result } = await collect('Who is it? [call lookup {"id":1}]', {
      tools: { lookup: lookup(seen) },
      stopWhen: stepCountIs(3),
    });
    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]!.finishReason).toBe("tool-calls");
    expect(steps[0]!.toolCalls.map((call) => [call.toolName, call.input])).toEqual([["lookup", { id: 1 }]]);
    expect(seen).toEqual([{ id: 1 }]);
    expect(steps[1]!.text).toBe('The lookup tool returned: {"name":"Ada Lovelace"}.');
    expect(await result.finishReason).toBe("stop");
  });

  it("emits several tool calls in one step, with JSON that contains brackets", async () => {
    const seen: unknown[] = [];
    const tools = {
      lookup: lookup(seen),
      tag: tool({ inputSchema: z.object({ keys: z.array(z.string()) }), execute: async ({ keys }) => keys.length }),
    };
    const result = await generateText({
      model,
      prompt: '[call lookup {"id":1}] then [call tag {"keys":["a]","b"]}] and [call lookup {"id":2}]',
      tools,
      stopWhen: stepCountIs(3),
    });
    expect(result.steps[0]!.toolCalls.map((call) => call.input)).toEqual([{ id: 1 }, { keys: ["a]", "b"] }, { id: 2 }]);
    expect(new Set(result.steps[0]!.toolCalls.map((call) => call.toolCallId)).size).toBe(3);
    expect(seen).toEqual([{ id: 1 }, { id: 2 }]);
    expect(result.text).toContain("The tag tool returned: 2.");
  });

  it("says so in text when the tool does not exist", async () => {
    const result = await generateText({ model, prompt: 'hi [call nope {"x":1}]', tools: { lookup: lookup() } });
    expect(result.toolCalls).toHaveLength(0);
    expect(result.finishReason).toBe("stop");
    expect(result.text).toContain("There is no tool named nope");
  });

  it("delegates [subagent …] through the task tool, when one is offered", async () => {
    const calls: unknown[] = [];
    const task = tool({
      inputSchema: z.object({ subagent: z.string(), prompt: z.string() }),
      execute: async (input) => (calls.push(input), "three papers found"),
    });
    const result = await generateText({
      model,
      prompt: "[subagent researcher Find papers about [graph] search]",
      tools: { task },
      stopWhen: stepCountIs(3),
    });
    expect(calls).toEqual([{ subagent: "researcher", prompt: "Find papers about [graph] search" }]);
    expect(result.text).toBe("The task tool returned: three papers found.");
    const without = await generateText({ model, prompt: "[subagent researcher Find papers]" });
    expect(without.text).toContain("I cannot delegate to researcher");
  });
});
