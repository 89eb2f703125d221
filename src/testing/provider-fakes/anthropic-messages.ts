// Anthropic's Messages API (`POST /messages`): message_start, then one content block per thinking,
// text or tool_use (start, deltas, stop), then message_delta with the stop reason and the final
// usage, then message_stop. Anthropic's `input_tokens` excludes cache reads and writes, which come
// in their own fields; a thinking block ends with a signature the client must send back.
import { argumentFragments, sseFrame, type FakeStreamReply, type JsonBody, type ProviderWire } from "./reply";

export const anthropicMessagesWire: ProviderWire = {
  path: "/messages",
  streamFrames(reply, body, index) {
    const frames: string[] = [];
    const emit = (type: string, fields: JsonBody = {}) => frames.push(sseFrame({ type, ...fields }, type));

    emit("message_start", {
      message: {
        id: `msg_fake_${index}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // Input and cache counts are final here; output is not known yet, and the API reports 1.
        usage: { ...inputUsage(reply), output_tokens: 1 },
      },
    });
    emit("ping");
    contentBlocks(reply, index).forEach((block, blockIndex) => {
      emit("content_block_start", { index: blockIndex, content_block: block.start });
      for (const delta of block.deltas) emit("content_block_delta", { index: blockIndex, delta });
      emit("content_block_stop", { index: blockIndex });
    });
    emit("message_delta", {
      delta: { stop_reason: reply.toolCalls?.length ? "tool_use" : "end_turn", stop_sequence: null },
      usage: usageOf(reply),
    });
    emit("message_stop");
    return frames;
  },
  errorBody: ({ status, message }) => ({
    type: "error",
    error: { type: errorTypes[status] ?? (status >= 500 ? "api_error" : "invalid_request_error"), message },
  }),
};

const errorTypes: Record<number, string> = {
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

type ContentBlock = { start: JsonBody; deltas: JsonBody[] };

function contentBlocks(reply: FakeStreamReply, index: number): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (reply.reasoning?.length) {
    blocks.push({
      start: { type: "thinking", thinking: "", signature: "" },
      deltas: [
        ...reply.reasoning.map((thinking) => ({ type: "thinking_delta", thinking })),
        { type: "signature_delta", signature: thinkingSignature(index) },
      ],
    });
  }
  if (reply.text?.length) {
    blocks.push({
      start: { type: "text", text: "" },
      deltas: reply.text.map((text) => ({ type: "text_delta", text })),
    });
  }
  for (const call of reply.toolCalls ?? []) {
    blocks.push({
      start: { type: "tool_use", id: call.id, name: call.name, input: {} },
      // The API opens every tool input with an empty fragment.
      deltas: ["", ...argumentFragments(call.input)].map((partial_json) => ({
        type: "input_json_delta",
        partial_json,
      })),
    });
  }
  return blocks;
}

/** The opaque signature on the thinking block of the reply to request `index`. */
export function thinkingSignature(index: number): string {
  return `EqQBCkYIBxgCKkBfake${index}`;
}

function inputUsage({ usage }: FakeStreamReply): JsonBody {
  const cacheRead = usage?.cacheReadTokens ?? 0;
  const cacheWrite = usage?.cacheWriteTokens ?? 0;
  return {
    input_tokens: (usage?.inputTokens ?? 0) - cacheRead - cacheWrite,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
}

/** message_delta's usage: cumulative, so it repeats the input counts next to the final output. */
function usageOf(reply: FakeStreamReply): JsonBody {
  const { usage } = reply;
  return {
    ...inputUsage(reply),
    output_tokens: usage?.outputTokens ?? 0,
    ...(usage?.reasoningTokens !== undefined && { output_tokens_details: { thinking_tokens: usage.reasoningTokens } }),
  };
}
