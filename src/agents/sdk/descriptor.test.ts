import { describe, expect, it } from "vitest";
import { z } from "zod";
import { brand, DefinitionError, descriptorKind, descriptorKindOf } from "./descriptor";

describe("descriptorKindOf", () => {
  it("reads the brand of a descriptor", () => {
    expect(descriptorKindOf(brand("tool", { description: "x" }))).toBe("tool");
  });

  it("recognises a brand set by another copy of the package (global symbol registry)", () => {
    const foreign = { [Symbol.for("agentfold.descriptor")]: "hook" };
    expect(descriptorKindOf(foreign)).toBe("hook");
  });

  it("returns undefined for values that are not descriptors", () => {
    expect(descriptorKindOf(undefined)).toBeUndefined();
    expect(descriptorKindOf(null)).toBeUndefined();
    expect(descriptorKindOf("tool")).toBeUndefined();
    expect(descriptorKindOf({ description: "x" })).toBeUndefined();
    expect(descriptorKindOf({ [descriptorKind]: "widget" })).toBeUndefined();
    expect(descriptorKindOf({ [Symbol("agentfold.descriptor")]: "tool" })).toBeUndefined();
  });
});

describe("brand", () => {
  it("freezes the descriptor and its plain data, but not zod schemas or functions", () => {
    const schema = z.object({ q: z.string() });
    const execute = () => "ok";
    const descriptor = brand("tool", { nested: { list: [1, 2] }, schema, execute });
    expect(Object.isFrozen(descriptor)).toBe(true);
    expect(Object.isFrozen(descriptor.nested)).toBe(true);
    expect(Object.isFrozen(descriptor.nested.list)).toBe(true);
    expect(Object.isFrozen(schema)).toBe(false);
    expect(descriptor.schema).toBe(schema);
    expect(descriptor.execute).toBe(execute);
    expect(schema.parse({ q: "still works" })).toEqual({ q: "still works" });
  });

  it("keeps the brand out of JSON", () => {
    expect(JSON.stringify(brand("skill", { description: "d" }))).toBe('{"description":"d"}');
  });
});

describe("DefinitionError", () => {
  it("writes one line per issue, naming the helper and the field", () => {
    const error = new DefinitionError("defineTool", [
      { path: "inputSchema", message: "expected a zod schema or a JSON Schema object" },
      { path: "", message: "give exactly one of markdown or run (got both)" },
    ]);
    expect(error.message).toBe(
      "defineTool: inputSchema: expected a zod schema or a JSON Schema object\n" +
        "defineTool: give exactly one of markdown or run (got both)",
    );
    expect(error.helper).toBe("defineTool");
    expect(error.issues).toHaveLength(2);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("DefinitionError");
  });
});
