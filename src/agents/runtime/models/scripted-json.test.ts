import { generateText, jsonSchema, Output } from "ai";
import { describe, expect, it } from "vitest";
import { createLocalScriptedModel } from "./local-scripted";
import { sampleOf } from "./scripted-json";

const answer = (schema: object) => ({
  type: "object" as const,
  properties: { answer: schema },
  required: ["answer"],
  additionalProperties: false,
});

describe("local:scripted asked for structured output", () => {
  it("answers the first value the schema allows", () => {
    expect(sampleOf(answer({ type: "string", enum: ["low", "medium", "high"] }))).toEqual({ answer: "low" });
    expect(sampleOf(answer({ type: "number", minimum: 1, maximum: 10 }))).toEqual({ answer: 5.5 });
    expect(sampleOf(answer({ type: "integer", minimum: 1, maximum: 10 }))).toEqual({ answer: 5 });
    expect(sampleOf(answer({ type: "boolean" }))).toEqual({ answer: true });
  });

  it("answers the schema's sample through generateText, or exactly what [say: …] says", async () => {
    const model = createLocalScriptedModel();
    const output = Output.object({
      schema: jsonSchema<{ answer: string }>(answer({ type: "string", enum: ["a", "b"] })),
    });
    const plain = await generateText({ model, output, prompt: "Which one?" });
    expect(plain.output).toEqual({ answer: "a" });
    expect(plain.usage.outputTokens).toBeGreaterThan(0);
    const said = await generateText({ model, output, prompt: 'Which one? [say: {"answer": "b"}]' });
    expect(said.output).toEqual({ answer: "b" });
  });

  it("still echoes when no structured output is asked for", async () => {
    const { text } = await generateText({ model: createLocalScriptedModel(), prompt: "Which one?" });
    expect(text).toContain('You said: "Which one?"');
  });
});
