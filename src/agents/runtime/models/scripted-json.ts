// `local:scripted` asked for structured output (a JSON Schema response format, as `decide` asks):
// it answers the schema's first fitting value instead of the echo, so structured calls work
// offline. A `[say: …]` directive still answers exactly its text (docs/models.md).
import type { JSONSchema7, JSONSchema7Definition, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { parseDirectives } from "./scripted-directives";
import { lastUserText } from "./scripted-prompt";
import { countWords, type ScriptedReply } from "./scripted-reply";

export function structuredReply(options: LanguageModelV3CallOptions, reply: ScriptedReply): ScriptedReply {
  const format = options.responseFormat;
  if (format?.type !== "json" || !format.schema) return reply;
  if (parseDirectives(lastUserText(options.prompt)).say !== undefined) return reply;
  const text = JSON.stringify(sampleOf(format.schema));
  const reasoning = reply.usage.outputTokens.reasoning ?? 0;
  const textTokens = countWords(text);
  return {
    ...reply,
    text,
    toolCalls: [],
    finishReason: "stop",
    usage: { ...reply.usage, outputTokens: { total: textTokens + reasoning, text: textTokens, reasoning } },
  };
}

/** The first value a schema allows: an enum's first member, a range's midpoint, true, "", []. */
export function sampleOf(schema: JSONSchema7Definition): unknown {
  if (typeof schema === "boolean") return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (variant !== undefined) return sampleOf(variant);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "boolean":
      return true;
    case "number":
    case "integer":
      return midpoint(schema, type === "integer");
    case "string":
      return "";
    case "array":
      return [];
    case "null":
      return null;
    default:
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sampleOf(property)]),
      );
  }
}

function midpoint(schema: JSONSchema7, isInteger: boolean): number {
  const { minimum: min, maximum: max } = schema;
  const value = min !== undefined && max !== undefined ? (min + max) / 2 : (min ?? max ?? 0);
  return isInteger ? Math.floor(value) : value;
}
