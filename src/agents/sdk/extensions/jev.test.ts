import { afterEach, describe, expect, it } from "vitest";
import { answerJsonSchema, checkAnswer, type DecisionRequest, decideHostKey } from "./decision";
import { decide } from "./jev";

const host = globalThis as Record<symbol, unknown>;

afterEach(() => {
  delete host[decideHostKey];
});

describe("decide", () => {
  it("refuses a request that asks for no type, or for two", async () => {
    await expect(decide({ question: "Ship it?" } as never)).rejects.toThrow(
      "decide: give exactly one of choices: [...], score: { min, max } or boolean: true",
    );
    await expect(decide({ question: "Ship it?", boolean: true, choices: ["a", "b"] } as never)).rejects.toThrow(
      "(got choices and boolean)",
    );
    await expect(decide({ question: "Risk?", choices: ["low"] })).rejects.toThrow(
      "decide: choices: give at least two choices",
    );
    await expect(decide({ question: "Score?", score: { min: 5, max: 1 } })).rejects.toThrow(
      "decide: score: score.min must be below score.max",
    );
    await expect(decide({ question: " ", boolean: true })).rejects.toThrow("decide: question: give a question");
  });

  it("says it needs the platform outside a platform call", async () => {
    await expect(decide({ question: "Ship it?", boolean: true })).rejects.toThrow(
      "decide: the platform's model is reachable only while the platform runs this code",
    );
  });

  it("hands a valid request to the platform's host call and answers what it decided", async () => {
    const seen: unknown[] = [];
    host[decideHostKey] = async (request: unknown) => (seen.push(request), "high");
    const tier: "low" | "high" = await decide({
      question: "Risk?",
      context: { amount: 900 },
      choices: ["low", "high"],
    });
    expect(tier).toBe("high");
    expect(seen).toEqual([{ question: "Risk?", context: { amount: 900 }, choices: ["low", "high"] }]);
  });
});

describe("a decision's answer", () => {
  const tier: DecisionRequest = { question: "Risk?", choices: ["low", "high"] };
  const score: DecisionRequest = { question: "Score?", score: { min: 1, max: 5 } };
  const gate: DecisionRequest = { question: "Pass?", boolean: true };

  it("is asked for as one object whose answer has the requested type", () => {
    expect(answerJsonSchema(score)).toEqual({
      type: "object",
      properties: { answer: { type: "number", minimum: 1, maximum: 5 } },
      required: ["answer"],
      additionalProperties: false,
    });
  });

  it("fits only the requested type, and says what came back when it does not", () => {
    expect(checkAnswer(tier, { answer: "low" })).toEqual({ ok: true, value: "low" });
    expect(checkAnswer(score, { answer: 4.5 })).toEqual({ ok: true, value: 4.5 });
    expect(checkAnswer(gate, { answer: false })).toEqual({ ok: true, value: false });
    expect(checkAnswer(tier, { answer: "purple" })).toEqual({
      ok: false,
      problem: 'answered "purple", which is not one of: "low", "high"',
    });
    expect(checkAnswer(score, { answer: 9 })).toEqual({
      ok: false,
      problem: "answered 9, which is not a number from 1 to 5",
    });
    expect(checkAnswer(gate, { verdict: "yes" })).toEqual({
      ok: false,
      problem: 'answered {"verdict":"yes"}, which is not true or false',
    });
  });
});
