// xAI's Chat Completions (`POST /chat/completions`, what `@ai-sdk/xai`'s default models call):
// OpenAI's chunk shape, except that a tool call arrives whole in one delta (id, name and all its
// arguments), and usage comes on the last chunk without being asked for.
import { openaiErrorBody } from "./openai-error";
import { sseFrame, type FakeStreamReply, type JsonBody, type ProviderWire } from "./reply";

export const xaiChatWire: ProviderWire = {
  path: "/chat/completions",
  streamFrames(reply, body, index) {
    const base = {
      id: `xai-fake-${index}`,
      object: "chat.completion.chunk",
      created: 1_764_000_000,
      model: body.model,
    };
    const chunk = (delta: JsonBody, finishReason: string | null = null, usage?: JsonBody) =>
      sseFrame({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason }], ...(usage ? { usage } : {}) });
    const frames = [chunk({ role: "assistant", content: "" })];
    for (const delta of reply.reasoning ?? []) frames.push(chunk({ reasoning_content: delta }));
    for (const delta of reply.text ?? []) frames.push(chunk({ content: delta }));
    for (const call of reply.toolCalls ?? []) {
      const whole = {
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.input) },
      };
      frames.push(chunk({ tool_calls: [whole] }));
    }
    frames.push(chunk({}, reply.toolCalls?.length ? "tool_calls" : "stop", usageOf(reply)));
    frames.push(sseFrame("[DONE]"));
    return frames;
  },
  errorBody: openaiErrorBody,
};

function usageOf({ usage }: FakeStreamReply): JsonBody | undefined {
  if (!usage) return undefined;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}
