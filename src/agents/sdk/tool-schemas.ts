// A tool's input and output schemas are zod or plain JSON Schema
// (docs/agent-folders.md, "The `define*` helpers"). The model and MCP clients need JSON Schema;
// execute needs validated input. Both conversions live here.
import { z } from "zod";
import { formatPath, isZodSchema } from "./validation";

export type JSONSchema = Record<string, unknown>;
export type ToolSchema = z.core.$ZodType | JSONSchema;

/** The input type `execute` receives: zod's output type, or raw JSON for a plain JSON Schema. */
export type ToolInputOf<S> = S extends z.core.$ZodType ? z.output<S> : unknown;

type SchemaIo = "input" | "output";

// Converting is not free and a tool list is sent on every model step.
const converted = new WeakMap<object, { input?: JSONSchema; output?: JSONSchema }>();

export function toJsonSchema(schema: ToolSchema, io: SchemaIo): JSONSchema {
  if (!isZodSchema(schema)) return schema;
  const cached = converted.get(schema) ?? {};
  cached[io] ??= z.toJSONSchema(schema, { io }) as JSONSchema;
  converted.set(schema, cached);
  return cached[io];
}

/** The JSON Schemas of a tool: zod converted with z.toJSONSchema, JSON Schema passed through. */
export function toolJsonSchemas(tool: { inputSchema?: ToolSchema; outputSchema?: ToolSchema }): {
  input: JSONSchema | undefined;
  output: JSONSchema | undefined;
} {
  return {
    input: tool.inputSchema === undefined ? undefined : toJsonSchema(tool.inputSchema, "input"),
    output: tool.outputSchema === undefined ? undefined : toJsonSchema(tool.outputSchema, "output"),
  };
}

/** Why a schema cannot be used, or undefined when it can. Tool input is always a JSON object,
 * so an input schema must describe one. */
export function toolSchemaProblem(schema: ToolSchema, io: SchemaIo): string | undefined {
  let json: JSONSchema;
  try {
    json = toJsonSchema(schema, io);
  } catch (error) {
    return `cannot be expressed as JSON Schema (${(error as Error).message})`;
  }
  if (io === "input" && json.type !== undefined && json.type !== "object") {
    return `must describe an object (tool input is a JSON object), got type ${JSON.stringify(json.type)}`;
  }
  return undefined;
}

export class ToolInputError extends Error {
  constructor(readonly issues: { path: string; message: string }[]) {
    const lines = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message));
    super(`invalid tool input: ${lines.join("; ")}`);
    this.name = "ToolInputError";
  }
}

/** Validates input against a zod inputSchema and returns the parsed value (defaults and
 * coercions applied); a JSON Schema or no schema passes the input through unchanged. */
export function parseToolInput<S extends ToolSchema | undefined>(
  tool: { inputSchema?: S },
  input: unknown,
): ToolInputOf<S> {
  const schema = tool.inputSchema;
  if (schema === undefined || !isZodSchema(schema)) return input as ToolInputOf<S>;
  const result = z.safeParse(schema, input);
  if (result.success) return result.data as ToolInputOf<S>;
  throw new ToolInputError(
    result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
  );
}
