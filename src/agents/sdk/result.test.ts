import { describe, expect, it } from "vitest";
import { z } from "zod";
import { descriptorKindOf } from "./descriptor";
import { checkResultText, defineResult, maxResultRepairs, ResultRejection } from "./result";
import { definitionMessages } from "./test-support";

describe("defineResult", () => {
  it("accepts commit, schema, or both", () => {
    const commit = (text: string) => text.length;
    const result = defineResult({ commit });
    expect(descriptorKindOf(result)).toBe("result");
    expect(result.commit).toBe(commit);
    expect(defineResult({ schema: z.object({ ok: z.boolean() }) }).schema).toBeDefined();
    expect(maxResultRepairs).toBe(2);
  });

  it("refuses an empty contract and bad fields", () => {
    expect(definitionMessages(() => defineResult({}))).toEqual(["defineResult: give commit, schema, or both"]);
    expect(definitionMessages(() => defineResult({ commit: "save", schema: { type: "object" } } as never))).toEqual([
      "defineResult: schema: expected a zod schema",
      "defineResult: commit: expected a function",
    ]);
  });
});

describe("checkResultText", () => {
  const schema = z.object({ verdict: z.enum(["approve", "reject"]) });

  it("fails empty text with or without a schema", () => {
    expect(checkResultText({}, "  \n")).toEqual({ ok: false, message: "the reply is empty" });
    expect(checkResultText({}, "Done.")).toEqual({ ok: true, value: undefined });
  });

  it("parses bare or fenced JSON against the schema", () => {
    expect(checkResultText({ schema }, '{"verdict":"approve"}')).toEqual({ ok: true, value: { verdict: "approve" } });
    expect(checkResultText({ schema }, '```json\n{"verdict":"reject"}\n```')).toEqual({
      ok: true,
      value: { verdict: "reject" },
    });
  });

  it("explains what is wrong, for the repair round", () => {
    expect(checkResultText({ schema }, "I approve")).toEqual({
      ok: false,
      message: "the reply must be JSON matching the result schema",
    });
    const mismatch = checkResultText({ schema }, '{"verdict":"maybe"}');
    expect(mismatch.ok).toBe(false);
    expect(!mismatch.ok && mismatch.message).toMatch(/^the reply does not match the result schema: verdict: /);
  });
});

describe("ResultRejection", () => {
  it("is an Error the runtime can recognise", () => {
    const rejection = new ResultRejection("cite a source");
    expect(rejection).toBeInstanceOf(Error);
    expect(rejection.name).toBe("ResultRejection");
    expect(rejection.message).toBe("cite a source");
  });
});
