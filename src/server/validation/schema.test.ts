import { describe, expect, it } from "vitest";
import { queryInteger, storableString, unstorableProblem, visibleAsciiId } from "./schema";

describe("storableString", () => {
  it("refuses what Postgres text and jsonb cannot hold: NUL and lone surrogates", () => {
    const schema = storableString().max(20);
    for (const bad of ["a\0b", "\ud800", "x\udc00", "\udc00\ud800", "ab\ud83d"])
      expect(schema.safeParse(bad).success).toBe(false);
    for (const good of ["", "plain", "emoji 😀", "\ud83d\ude00", "tab\tnew\nline"])
      expect(schema.safeParse(good).success).toBe(true);
    expect(schema.safeParse("x".repeat(21)).success).toBe(false);
  });

  it("says which of the two it is", () => {
    expect(unstorableProblem("a\0")).toMatch(/NUL/);
    expect(unstorableProblem("a\ud800")).toMatch(/surrogate/);
    expect(unstorableProblem("ok")).toBeUndefined();
  });
});

describe("queryInteger", () => {
  it("takes whole numbers within its range and never past a Postgres integer", () => {
    const schema = queryInteger({ min: 0, default: 0 });
    expect(schema.parse(undefined)).toBe(0);
    expect(schema.parse("2147483647")).toBe(2_147_483_647);
    for (const bad of ["2147483648", "-1", "1.5", "abc", "1e400"]) expect(schema.safeParse(bad).success).toBe(false);
    expect(queryInteger({ min: 1, max: 100, default: 20 }).safeParse("101").success).toBe(false);
  });
});

describe("visibleAsciiId", () => {
  it("takes provider and caller ids, refuses spaces, control characters and non-ASCII", () => {
    const schema = visibleAsciiId("callId");
    for (const good of ["call_1", "toolu_01A09q90qw90lq917835lq9", "a:b.c-d|e"])
      expect(schema.safeParse(good).success).toBe(true);
    for (const bad of ["", "a b", "a\0", "é", "x".repeat(201)]) expect(schema.safeParse(bad).success).toBe(false);
  });
});
