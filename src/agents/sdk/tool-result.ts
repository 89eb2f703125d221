// What a tool returns and how it reaches the model (docs/turns.md, "Tools"): a string verbatim, a
// JSON value serialized, or an MCP-style envelope `{ content, isError? }` as written.
import { z } from "zod";
import type { JsonValue } from "./types";

const textPart = z.strictObject({ type: z.literal("text"), text: z.string() });
const mediaPart = (type: "image" | "audio") =>
  z.strictObject({ type: z.literal(type), data: z.string(), mimeType: z.string() });
const resourcePart = z.strictObject({
  type: z.literal("resource"),
  resource: z.looseObject({ uri: z.string(), mimeType: z.string().optional() }),
});
const resourceLinkPart = z.looseObject({
  type: z.literal("resource_link"),
  uri: z.string(),
  name: z.string(),
});

export const toolContentPartSchema = z.discriminatedUnion("type", [
  textPart,
  mediaPart("image"),
  mediaPart("audio"),
  resourcePart,
  resourceLinkPart,
]);
export type ToolContentPart = z.infer<typeof toolContentPartSchema>;

export const toolExecuteResultSchema = z.strictObject({
  content: z.array(toolContentPartSchema),
  isError: z.boolean().optional(),
  /** Structured result for MCP clients when the tool declares an outputSchema. */
  structuredContent: z.record(z.string(), z.json()).optional(),
});
export type ToolExecuteResult = z.infer<typeof toolExecuteResultSchema>;

/** What `execute` may return. */
// biome-ignore lint/suspicious/noConfusingVoidType: `execute` may return nothing, as in the Cursor SDK.
export type ToolReturn = string | JsonValue | ToolExecuteResult | void;

export function isToolExecuteResult(value: unknown): value is ToolExecuteResult {
  return toolExecuteResultSchema.safeParse(value).success;
}

/** The envelope the model sees for a value `execute` returned. */
export function toolResultEnvelope(value: unknown): ToolExecuteResult {
  if (isToolExecuteResult(value)) return value;
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (value === undefined) return { content: [] };
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`tool returned a value that is not JSON: ${typeof value}`);
  return { content: [{ type: "text", text }] };
}
