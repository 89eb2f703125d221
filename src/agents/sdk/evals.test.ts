import { describe, expect, it } from "vitest";
import { z } from "zod";
import { descriptorKindOf } from "./descriptor";
import { defineEval, defineEvalConfig, includes, matches, satisfies, trajectoryChecks } from "./evals";
import type { SessionEvent } from "./events";
import { definitionMessages } from "./test-support";

const test = async () => {};

describe("defineEval", () => {
  it("accepts a single test with defaults", () => {
    const evalDef = defineEval({ test });
    expect(descriptorKindOf(evalDef)).toBe("eval");
    expect(evalDef).toMatchObject({ tags: [], iterations: 1 });
    expect(evalDef.test).toBe(test);
  });

  it("accepts cases with tags and iterations", () => {
    const evalDef = defineEval({
      tags: ["smoke"],
      iterations: 3,
      cases: [
        { id: "checkout", test },
        { id: "refund", description: "r", test },
      ],
    });
    expect(evalDef.cases?.map((item) => item.id)).toEqual(["checkout", "refund"]);
  });

  it("refuses test and cases together, or neither", () => {
    expect(definitionMessages(() => defineEval({ test, cases: [{ id: "a", test }] } as never))).toEqual([
      "defineEval: give test or cases, not both",
    ]);
    expect(definitionMessages(() => defineEval({} as never))).toEqual(["defineEval: give test or cases"]);
  });

  it("refuses duplicate case ids and ids that are not one path segment", () => {
    const cases = [
      { id: "a", test },
      { id: "a", test },
      { id: "prs/checkout", test },
      { id: "..", test },
    ];
    expect(definitionMessages(() => defineEval({ cases }))).toEqual([
      "defineEval: cases[2].id: must be a single path segment (no slashes)",
      "defineEval: cases[3].id: must be a non-empty path segment",
      'defineEval: cases[1].id: duplicate case id "a"',
    ]);
  });

  it("refuses bad iterations, empty case lists and cases without a test", () => {
    expect(definitionMessages(() => defineEval({ test, iterations: 0 }))).toEqual([
      "defineEval: iterations: must be a positive integer",
    ]);
    expect(definitionMessages(() => defineEval({ cases: [] }))).toEqual([
      "defineEval: cases: must list at least one case",
    ]);
    expect(definitionMessages(() => defineEval({ cases: [{ id: "a" }] } as never))).toEqual([
      "defineEval: cases[0].test: is required",
    ]);
  });
});

describe("defineEvalConfig", () => {
  it("defaults maxConcurrency and validates it", () => {
    expect(defineEvalConfig().maxConcurrency).toBe(4);
    expect(defineEvalConfig({ maxConcurrency: 20 }).maxConcurrency).toBe(20);
    expect(descriptorKindOf(defineEvalConfig())).toBe("eval-config");
    expect(definitionMessages(() => defineEvalConfig({ maxConcurrency: -1 }))).toEqual([
      "defineEvalConfig: maxConcurrency: must be a positive integer",
    ]);
  });
});

describe("matchers", () => {
  it("includes: substring or regex, on strings only", () => {
    expect(includes("refund").test("Your refund is on its way").pass).toBe(true);
    expect(includes("refund").test("nothing")).toEqual({
      pass: false,
      message: 'expected "nothing" to include "refund"',
    });
    expect(includes(/order #\d+/).test("order #42 shipped").pass).toBe(true);
    expect(includes("x").test(42)).toEqual({ pass: false, message: 'expected a string that includes "x", got 42' });
  });

  it("includes: a global regex answers the same on every call", () => {
    const matcher = includes(/a/g);
    expect([matcher.test("a").pass, matcher.test("a").pass]).toEqual([true, true]);
  });

  it("matches: validates with a zod schema and lists the problems", () => {
    const matcher = matches(z.object({ status: z.enum(["open", "closed"]) }));
    expect(matcher.test({ status: "open" }).pass).toBe(true);
    const result = matcher.test({ status: "lost" });
    expect(result.pass).toBe(false);
    expect(result.message).toMatch(/^does not match the schema: status: /);
  });
});

describe("satisfies", () => {
  it("passes what the predicate accepts, says what failed, and treats a throw as a failure", () => {
    const positive = satisfies((n) => typeof n === "number" && n > 0, "is positive");
    expect(positive.test(3)).toEqual({ pass: true, message: "is positive" });
    expect(positive.test(-1)).toEqual({ pass: false, message: "expected -1 to satisfy: is positive" });
    expect(
      satisfies(() => {
        throw new Error("boom");
      }).test(1),
    ).toEqual({ pass: false, message: "satisfies the predicate: the predicate threw: boom" });
  });
});

describe("trajectoryChecks", () => {
  const base = { sessionId: "ses_1", turnId: "turn_1", at: "2024-01-01T00:00:00.000Z" };
  const events = [
    { ...base, index: 0, type: "message.received", data: { text: "refund order 42" } },
    { ...base, index: 1, type: "actions.requested", data: { calls: [{ callId: "c1", toolName: "lookup_order" }] } },
    { ...base, index: 2, type: "message.completed", data: { text: "Refunded." } },
    { ...base, index: 3, type: "turn.completed", data: {} },
  ] as SessionEvent[];

  it("reads success, tool calls and the reply from the events", () => {
    const checks = trajectoryChecks(events);
    expect(checks.succeeded()).toEqual({ pass: true, message: "every turn completed" });
    expect(checks.calledTool("lookup_order").pass).toBe(true);
    expect(checks.calledTool("refund")).toEqual({
      pass: false,
      message: "expected a call to refund; called: lookup_order",
    });
    expect(checks.notCalledTool("refund").pass).toBe(true);
    expect(checks.notCalledTool("lookup_order").pass).toBe(false);
    expect(checks.reply).toBe("Refunded.");
  });

  it("fails succeeded() when a turn failed or none completed", () => {
    const failed = [...events, { ...base, index: 4, type: "turn.failed", data: { message: "boom" } }] as SessionEvent[];
    expect(trajectoryChecks(failed).succeeded()).toEqual({ pass: false, message: "a turn failed: boom" });
    expect(trajectoryChecks([]).succeeded()).toEqual({ pass: false, message: "no turn completed" });
    expect(trajectoryChecks([]).reply).toBe("");
  });
});
