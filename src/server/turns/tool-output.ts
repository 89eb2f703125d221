// What a tool call's outcome looks like on the event log and to the model (docs/turns.md "Tools"):
// a string verbatim, a JSON value serialized, an MCP-style envelope `{ content, isError? }` as rich
// content, and a throw as an error result the turn goes on from.
import type { JSONValue } from "@ai-sdk/provider";
import type { ToolResultPart } from "ai";

type ToolResultOutput = ToolResultPart["output"];

type ContentOutput = Extract<ToolResultOutput, { type: "content" }>["value"][number];

/** The outcome of one call as `action.result` records it. */
export type ToolOutcome = { output: JSONValue; isError: boolean; stubbed?: boolean };

type ContentPart = { type: string; text?: string; data?: string; mimeType?: string };

function isEnvelope(value: unknown): value is { content: ContentPart[]; isError?: boolean } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const content = (value as { content?: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every((part) => typeof part === "object" && part !== null && typeof (part as ContentPart).type === "string")
  );
}

export function succeeded(output: unknown): ToolOutcome {
  const value = (output ?? null) as JSONValue;
  return { output: value, isError: isEnvelope(value) && value.isError === true };
}

export function failed(message: string): ToolOutcome {
  return { output: message, isError: true };
}

export function toModelOutput(outcome: ToolOutcome): ToolResultOutput {
  const { output, isError } = outcome;
  if (isEnvelope(output)) {
    const text = output.content.flatMap((part) => (part.type === "text" && part.text ? [part.text] : [])).join("\n");
    if (isError) return { type: "error-text", value: text || "the tool reported an error" };
    return {
      type: "content",
      value: output.content.flatMap((part): ContentOutput[] => {
        if (part.type === "text") return [{ type: "text" as const, text: part.text ?? "" }];
        if (part.type === "image" && part.data && part.mimeType)
          return [{ type: "media" as const, data: part.data, mediaType: part.mimeType }];
        return [{ type: "text" as const, text: JSON.stringify(part) }];
      }),
    };
  }
  if (typeof output === "string")
    return isError ? { type: "error-text", value: output } : { type: "text", value: output };
  return isError ? { type: "error-json", value: output } : { type: "json", value: output };
}
