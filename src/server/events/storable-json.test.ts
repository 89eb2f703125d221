import { describe, expect, it } from "vitest";
import { storableJson } from "./storable-json";

describe("storableJson", () => {
  it("leaves storable values exactly as JSON.stringify writes them", () => {
    const value = {
      text: "héllo 👋",
      escaped: "a literal \\u0000 stays",
      list: [1, null, true],
      nested: { at: new Date(0) },
    };
    expect(storableJson(value)).toBe(JSON.stringify(value));
  });

  it("replaces NUL and lone surrogates in strings and keys with U+FFFD", () => {
    const value = { "k\u0000ey": ["a\u0000b", "\ud800x", "y\udc00", "pair 👋 kept"], deep: { s: "\udbff" } };
    const parsed = JSON.parse(storableJson(value));
    expect(parsed).toEqual({ "k\ufffdey": ["a\ufffdb", "\ufffdx", "y\ufffd", "pair 👋 kept"], deep: { s: "\ufffd" } });
    expect(storableJson(value)).not.toMatch(/\\u0000|\\ud[89a-f]/i);
  });

  it("keeps undefined as JSON.stringify does", () => {
    expect(storableJson(undefined)).toBeUndefined();
    expect(storableJson({ a: undefined, b: "\u0000" })).toBe('{"b":"\ufffd"}');
  });
});
