import { describe, expect, it } from "vitest";
import { z } from "zod";
import { definitionMessages } from "./test-support";
import { formatPath, isJsonSchemaObject, isZodSchema, parseConfig } from "./validation";

describe("formatPath", () => {
  it("writes paths the way the author wrote the field", () => {
    expect(formatPath(["cases", 1, "id"])).toBe("cases[1].id");
    expect(formatPath(["events", "turn.completed"])).toBe('events["turn.completed"]');
    expect(formatPath(["inputSchema"])).toBe("inputSchema");
    expect(formatPath([])).toBe("");
  });
});

describe("schema detection", () => {
  it("tells zod schemas, JSON Schema objects and other things apart", () => {
    expect(isZodSchema(z.string())).toBe(true);
    expect(isZodSchema({ type: "object" })).toBe(false);
    expect(isJsonSchemaObject({ type: "object", properties: { a: { type: "string" } } })).toBe(true);
    expect(isJsonSchemaObject(z.object({}))).toBe(false);
    expect(isJsonSchemaObject({ type: "object", validate: () => true })).toBe(false);
    expect(isJsonSchemaObject(new Map())).toBe(false);
    expect(isJsonSchemaObject([{ type: "string" }])).toBe(false);
  });
});

describe("parseConfig", () => {
  const schema = z.strictObject({ name: z.string(), count: z.number().optional() });

  it("rejects a missing config, naming the helper", () => {
    expect(definitionMessages(() => parseConfig("defineThing", schema, undefined))).toEqual([
      "defineThing: expected a config object, got undefined",
    ]);
    expect(definitionMessages(() => parseConfig("defineThing", schema, [1]))).toEqual([
      "defineThing: expected a config object, got array",
    ]);
  });

  it("reports missing, mistyped and unknown fields, one line each", () => {
    expect(definitionMessages(() => parseConfig("defineThing", schema, { count: "3", nmae: "x", other: 1 }))).toEqual([
      "defineThing: name: is required",
      "defineThing: count: expected number, got string",
      "defineThing: nmae: unknown field",
      "defineThing: other: unknown field",
    ]);
  });

  it("returns the parsed config", () => {
    expect(parseConfig("defineThing", schema, { name: "n" })).toEqual({ name: "n" });
  });
});
