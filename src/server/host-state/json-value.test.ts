import { describe, expect, it } from "vitest";
import { maxJsonDepth, serializeJsonValue } from "./json-value";

const problem = (value: unknown) => () => serializeJsonValue(value, "value");

describe("serializeJsonValue", () => {
  it("serializes JSON, dropping undefined fields as JSON.stringify does", () => {
    expect(serializeJsonValue({ a: [1, "two", null, true], b: undefined, c: { d: -0.5 } }, "v")).toBe(
      '{"a":[1,"two",null,true],"c":{"d":-0.5}}',
    );
  });

  it("names what is not JSON and where it is", () => {
    expect(problem(undefined)).toThrow("value is not JSON: $ is undefined");
    expect(problem({ a: [1, Number.NaN] })).toThrow('$["a"][1] is NaN');
    expect(problem({ a: Number.POSITIVE_INFINITY })).toThrow('$["a"] is Infinity');
    expect(problem([() => 1])).toThrow("$[0] is a function");
    expect(problem({ at: new Date(0) })).toThrow('$["at"] is a Date, not a plain object');
    expect(problem(new Map())).toThrow("$ is a Map");
    expect(problem(10n)).toThrow("$ is a bigint");
    expect(problem([undefined])).toThrow("$[0] is undefined");
    expect(problem({ s: "a\0b" })).toThrow('$["s"] must not contain a NUL');
    expect(problem({ "\uD800": 1 })).toThrow("lone UTF-16 surrogate");
  });

  it("refuses nesting deeper than the limit, without running out of stack", () => {
    let deep: unknown = 1;
    for (let i = 0; i <= maxJsonDepth; i++) deep = [deep];
    expect(problem(deep)).toThrow(`nested deeper than ${maxJsonDepth} levels`);
    let cyclic: Record<string, unknown> = {};
    cyclic = { self: cyclic };
    (cyclic.self as Record<string, unknown>).self = cyclic;
    expect(problem(cyclic)).toThrow("nested deeper");
  });
});
