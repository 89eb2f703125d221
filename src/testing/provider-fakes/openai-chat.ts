// OpenAI's Chat Completions (`POST /chat/completions`), which vLLM, Ollama and llama.cpp imitate:
// untyped `data:` chunks with `choices[0].delta`, a last choice chunk carrying `finish_reason`, and
// `data: [DONE]`. A tool call's first delta names it; later ones carry only its index and an
// arguments fragment. Usage comes in an extra chunk with no choices, and only when the request asked
// for it with `stream_options.include_usage` — as OpenAI and vLLM behave.
import { argumentFragments, sseFrame, type FakeStreamReply, type JsonBody, type ProviderWire } from "./reply";
import { openaiErrorBody } from "./openai-error";

export const openaiChatWire: ProviderWire = {
  path: "/chat/completions",
  streamFrames(reply, body, index) {
    const isUsageRequested = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const base = {
      id: `chatcmpl-fake-${index}`,
      object: "chat.completion.chunk",
      created: 1_764_000_000,
      model: body.model,
      system_fingerprint: "fp_fake",
      ...(isUsageRequested && { usage: null }),
    };
    const chunk = (delta: JsonBody, finishReason: string | null = null) =>
      sseFrame({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });

    const frames = [chunk({ role: "assistant", content: "" })];
    // `reasoning_content` is the vLLM/DeepSeek field; OpenAI itself never streams reasoning here.
    for (const delta of reply.reasoning ?? []) frames.push(chunk({ reasoning_content: delta }));
    for (const delta of reply.text ?? []) frames.push(chunk({ content: delta }));
    (reply.toolCalls ?? []).forEach((call, position) => {
      frames.push(
        chunk({
          tool_calls: [
            { index: position, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
          ],
        }),
      );
      for (const fragment of argumentFragments(call.input)) {
        frames.push(chunk({ tool_calls: [{ index: position, function: { arguments: fragment } }] }));
      }
    });
    frames.push(chunk({}, reply.toolCalls?.length ? "tool_calls" : "stop"));
    if (isUsageRequested) frames.push(sseFrame({ ...base, choices: [], usage: usageOf(reply) }));
    frames.push(sseFrame("[DONE]"));
    return frames;
  },
  errorBody: openaiErrorBody,
};

function usageOf({ usage }: FakeStreamReply): JsonBody | null {
  if (!usage) return null;
  if (usage.cacheWriteTokens !== undefined) throw new Error("Chat Completions reports no cache writes");
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}
