import { describe, expect, it } from "vitest";
import { z } from "zod";
import { descriptorKindOf } from "./descriptor";
import { definitionMessages } from "./test-support";
import { defineTool, parseToolInput, ToolInputError, toolJsonSchemas, toolResultEnvelope } from "./tools";

const execute = () => "ok";

describe("defineTool", () => {
  it("fills the safe defaults and keeps execute as given", () => {
    const tool = defineTool({ description: "Look up an order", execute });
    expect(descriptorKindOf(tool)).toBe("tool");
    expect(tool).toMatchObject({ execution: "server", effect: "write", needsApproval: false });
    expect(tool.execute).toBe(execute);
    expect(Object.isFrozen(tool)).toBe(true);
  });

  it('reads the legacy execution "host" as "server" and keeps "agent"', () => {
    expect(defineTool({ description: "d", execute, execution: "host" }).execution).toBe("server");
    expect(defineTool({ description: "d", execute, execution: "agent" }).execution).toBe("agent");
  });

  it("accepts a needsApproval function, a read effect and a timeout", () => {
    const needsApproval = (input: { amount: number }) => input.amount > 100;
    const tool = defineTool({
      description: "Refund",
      inputSchema: z.object({ amount: z.number() }),
      execute: ({ amount }) => ({ refunded: amount }),
      effect: "read",
      needsApproval,
      timeoutMs: 900_000,
    });
    expect(tool.needsApproval).toBe(needsApproval);
    expect(tool.effect).toBe("read");
    expect(tool.timeoutMs).toBe(900_000);
  });

  it("accepts a plain JSON Schema", () => {
    const inputSchema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };
    expect(defineTool({ description: "d", inputSchema, execute }).inputSchema).toEqual(inputSchema);
  });

  it("names the missing fields", () => {
    expect(definitionMessages(() => defineTool({} as never))).toEqual([
      "defineTool: description: is required",
      "defineTool: execute: is required",
    ]);
    expect(definitionMessages(() => defineTool({ description: "  ", execute: "run" } as never))).toEqual([
      "defineTool: description: must not be empty",
      "defineTool: execute: expected a function",
    ]);
  });

  it("rejects schemas that are neither zod nor JSON Schema", () => {
    expect(
      definitionMessages(() => defineTool({ description: "d", execute, inputSchema: new Map() as never })),
    ).toEqual(["defineTool: inputSchema: expected a zod schema or a JSON Schema object"]);
    expect(
      definitionMessages(() => defineTool({ description: "d", execute, outputSchema: "string" as never })),
    ).toEqual(["defineTool: outputSchema: expected a zod schema or a JSON Schema object"]);
  });

  it("rejects an input schema that is not an object, or not expressible as JSON Schema", () => {
    expect(definitionMessages(() => defineTool({ description: "d", execute, inputSchema: z.string() }))).toEqual([
      'defineTool: inputSchema: must describe an object (tool input is a JSON object), got type "string"',
    ]);
    expect(definitionMessages(() => defineTool({ description: "d", execute, inputSchema: { type: "array" } }))).toEqual(
      ['defineTool: inputSchema: must describe an object (tool input is a JSON object), got type "array"'],
    );
    expect(
      definitionMessages(() => defineTool({ description: "d", execute, inputSchema: z.object({ when: z.date() }) })),
    ).toEqual([
      "defineTool: inputSchema: cannot be expressed as JSON Schema (Date cannot be represented in JSON Schema)",
    ]);
  });

  it("rejects bad execution, effect, needsApproval, timeoutMs and unknown fields together", () => {
    const config = {
      description: "d",
      execute,
      execution: "cloud",
      effect: "delete",
      needsApproval: "yes",
      timeoutMs: 900_001,
      needApproval: true,
    };
    expect(definitionMessages(() => defineTool(config as never))).toEqual([
      'defineTool: execution: expected "server" or "agent"',
      'defineTool: effect: expected "read" or "write"',
      "defineTool: needsApproval: expected a boolean or a function",
      "defineTool: timeoutMs: must be at most 900000 (15 minutes)",
      "defineTool: needApproval: unknown field",
    ]);
    expect(definitionMessages(() => defineTool({ description: "d", execute, timeoutMs: 0 }))).toEqual([
      "defineTool: timeoutMs: must be positive",
    ]);
    expect(definitionMessages(() => defineTool({ description: "d", execute, timeoutMs: 1.5 }))).toEqual([
      "defineTool: timeoutMs: must be a whole number of milliseconds",
    ]);
  });
});

describe("toolJsonSchemas", () => {
  it("converts zod input (input side) and output (output side) schemas", () => {
    const tool = defineTool({
      description: "d",
      inputSchema: z.object({ q: z.string(), limit: z.number().default(10) }),
      outputSchema: z.object({ hits: z.array(z.string()) }),
      execute: () => ({ hits: [] }),
    });
    const { input, output } = toolJsonSchemas(tool);
    expect(input).toMatchObject({
      type: "object",
      properties: { q: { type: "string" }, limit: { type: "number", default: 10 } },
      required: ["q"],
    });
    expect(output).toMatchObject({
      type: "object",
      properties: { hits: { type: "array", items: { type: "string" } } },
      required: ["hits"],
    });
  });

  it("passes a JSON Schema through and reports absent schemas as undefined", () => {
    const inputSchema = { type: "object", properties: { id: { type: "integer" } } };
    expect(toolJsonSchemas({ inputSchema })).toEqual({ input: inputSchema, output: undefined });
    expect(toolJsonSchemas({})).toEqual({ input: undefined, output: undefined });
  });
});

describe("parseToolInput", () => {
  const tool = defineTool({
    description: "d",
    inputSchema: z.object({ q: z.string(), limit: z.number().int().default(10) }),
    execute: ({ q, limit }) => `${q}:${limit}`,
  });

  it("returns the parsed input with defaults applied", () => {
    expect(parseToolInput(tool, { q: "shoes" })).toEqual({ q: "shoes", limit: 10 });
  });

  it("throws a readable error naming each bad field", () => {
    expect(() => parseToolInput(tool, { limit: 2.5 })).toThrow(ToolInputError);
    expect(() => parseToolInput(tool, { limit: 2.5 })).toThrow(
      "invalid tool input: q: Invalid input: expected string, received undefined; limit: Invalid input: expected int, received number",
    );
  });

  it("passes input through unchanged for a JSON Schema or no schema", () => {
    const raw = { anything: [1, 2] };
    expect(parseToolInput({ inputSchema: { type: "object" } }, raw)).toBe(raw);
    expect(parseToolInput({}, raw)).toBe(raw);
  });
});

describe("toolResultEnvelope", () => {
  it("wraps strings verbatim, serializes JSON values and keeps envelopes", () => {
    expect(toolResultEnvelope("done")).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(toolResultEnvelope({ id: 1 })).toEqual({ content: [{ type: "text", text: '{"id":1}' }] });
    const envelope = { content: [{ type: "text" as const, text: "no" }], isError: true };
    expect(toolResultEnvelope(envelope)).toBe(envelope);
    expect(toolResultEnvelope(undefined)).toEqual({ content: [] });
  });

  it("refuses values that are not JSON", () => {
    expect(() => toolResultEnvelope(() => 1)).toThrow("tool returned a value that is not JSON: function");
  });
});

describe("defineTool typing", () => {
  it("infers execute's input from a zod schema and requires JSON-shaped returns", async () => {
    const tool = defineTool({
      description: "d",
      inputSchema: z.object({ q: z.string() }),
      execute: ({ q }) => ({ echoed: q.toUpperCase() }),
    });
    expect(await tool.execute({ q: "a" }, {} as never)).toEqual({ echoed: "A" });

    interface Row {
      id: number;
    }
    // @ts-expect-error an interface has no index signature, so it is not JSON-shaped (docs/agent-folders.md).
    const rejected = () => defineTool({ description: "d", execute: (): Row => ({ id: 1 }) });
    type RowAlias = { id: number };
    const accepted = () => defineTool({ description: "d", execute: (): RowAlias => ({ id: 1 }) });
    expect(typeof rejected).toBe("function");
    expect(accepted().execute(undefined, {} as never)).toEqual({ id: 1 });
  });
});
