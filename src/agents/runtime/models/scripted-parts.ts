// Turns a planned scripted reply into what the V3 spec returns: content for doGenerate, stream
// parts for doStream. Both carry the same reasoning, text and tool calls, in that order.
import type { LanguageModelV3Content, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { ScriptedReply } from "./scripted-reply";

const wordsPerChunk = 3;

export function toContent(reply: ScriptedReply): LanguageModelV3Content[] {
  return [
    ...(reply.reasoning ? [{ type: "reasoning" as const, text: reply.reasoning }] : []),
    ...(reply.text ? [{ type: "text" as const, text: reply.text }] : []),
    ...reply.toolCalls,
  ];
}

export function toStreamParts(reply: ScriptedReply): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (reply.reasoning) {
    parts.push({ type: "reasoning-start", id: "reasoning-0" });
    for (const delta of chunks(reply.reasoning)) parts.push({ type: "reasoning-delta", id: "reasoning-0", delta });
    parts.push({ type: "reasoning-end", id: "reasoning-0" });
  }
  if (reply.text) {
    parts.push({ type: "text-start", id: "text-0" });
    for (const delta of chunks(reply.text)) parts.push({ type: "text-delta", id: "text-0", delta });
    parts.push({ type: "text-end", id: "text-0" });
  }
  for (const call of reply.toolCalls) {
    parts.push(
      { type: "tool-input-start", id: call.toolCallId, toolName: call.toolName },
      { type: "tool-input-delta", id: call.toolCallId, delta: call.input },
      { type: "tool-input-end", id: call.toolCallId },
      call,
    );
  }
  parts.push({
    type: "finish",
    usage: reply.usage,
    finishReason: { unified: reply.finishReason, raw: reply.finishReason },
  });
  return parts;
}

/** Splits text into runs of a few words, keeping the whitespace, so the deltas join back exactly. */
export function chunks(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const result: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) result.push(words.slice(i, i + wordsPerChunk).join(""));
  return result;
}
