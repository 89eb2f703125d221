// OpenAI's Responses API (`POST /responses`, what `createOpenAI(...)(model)` calls): typed events with a
// sequence number, one output item per reasoning summary, message or function call, and usage only
// on `response.completed`. The `*.done` events repeat the whole value; the SDK takes a function
// call's arguments from `response.output_item.done`, not from the deltas.
import { argumentFragments, joined, sseFrame, type FakeStreamReply, type JsonBody, type ProviderWire } from "./reply";
import { openaiErrorBody } from "./openai-error";

const createdAt = 1_764_000_000;

export const openaiResponsesWire: ProviderWire = {
  path: "/responses",
  streamFrames(reply, body, index) {
    let sequence = 0;
    const frames: string[] = [];
    const emit = (type: string, fields: JsonBody) =>
      frames.push(sseFrame({ type, sequence_number: sequence++, ...fields }, type));
    const response = { id: `resp_fake_${index}`, object: "response", created_at: createdAt, model: body.model };
    const output: JsonBody[] = [];

    emit("response.created", { response: { ...response, status: "in_progress", output: [], usage: null } });
    emit("response.in_progress", { response: { ...response, status: "in_progress", output: [], usage: null } });
    const items = [...reasoningItem(reply, index), ...messageItem(reply, index), ...functionCallItems(reply, index)];
    for (const item of items) {
      const outputIndex = output.length;
      emit("response.output_item.added", { output_index: outputIndex, item: item.started });
      for (const [type, fields] of item.events)
        emit(type, { item_id: item.done.id, output_index: outputIndex, ...fields });
      emit("response.output_item.done", { output_index: outputIndex, item: item.done });
      output.push(item.done);
    }
    emit("response.completed", { response: { ...response, status: "completed", output, usage: usageOf(reply) } });
    return frames;
  },
  errorBody: openaiErrorBody,
};

type OutputItem = { started: JsonBody; events: [string, JsonBody][]; done: JsonBody & { id: string } };

function reasoningItem(reply: FakeStreamReply, index: number): OutputItem[] {
  if (!reply.reasoning?.length) return [];
  const id = `rs_fake_${index}`;
  const text = joined(reply.reasoning);
  const part = (partText: string) => ({ summary_index: 0, part: { type: "summary_text", text: partText } });
  return [
    {
      started: { id, type: "reasoning", summary: [] },
      events: [
        ["response.reasoning_summary_part.added", part("")],
        ...reply.reasoning.map((delta): [string, JsonBody] => [
          "response.reasoning_summary_text.delta",
          { summary_index: 0, delta },
        ]),
        ["response.reasoning_summary_text.done", { summary_index: 0, text }],
        ["response.reasoning_summary_part.done", part(text)],
      ],
      done: { id, type: "reasoning", summary: [{ type: "summary_text", text }] },
    },
  ];
}

function messageItem(reply: FakeStreamReply, index: number): OutputItem[] {
  if (!reply.text?.length) return [];
  const id = `msg_fake_${index}`;
  const text = joined(reply.text);
  const part = (partText: string) => ({
    content_index: 0,
    part: { type: "output_text", text: partText, annotations: [] },
  });
  return [
    {
      started: { id, type: "message", status: "in_progress", role: "assistant", content: [] },
      events: [
        ["response.content_part.added", part("")],
        ...reply.text.map((delta): [string, JsonBody] => [
          "response.output_text.delta",
          { content_index: 0, delta, logprobs: [] },
        ]),
        ["response.output_text.done", { content_index: 0, text, logprobs: [] }],
        ["response.content_part.done", part(text)],
      ],
      done: { id, type: "message", status: "completed", role: "assistant", content: [part(text).part] },
    },
  ];
}

function functionCallItems(reply: FakeStreamReply, index: number): OutputItem[] {
  return (reply.toolCalls ?? []).map((call, position) => {
    const item = { id: `fc_fake_${index}_${position}`, type: "function_call", call_id: call.id, name: call.name };
    const args = JSON.stringify(call.input);
    return {
      started: { ...item, status: "in_progress", arguments: "" },
      events: [
        ...argumentFragments(call.input).map((delta): [string, JsonBody] => [
          "response.function_call_arguments.delta",
          { delta },
        ]),
        ["response.function_call_arguments.done", { arguments: args }],
      ],
      done: { ...item, status: "completed", arguments: args },
    };
  });
}

function usageOf({ usage }: FakeStreamReply): JsonBody | null {
  if (!usage) return null;
  if (usage.cacheWriteTokens !== undefined) throw new Error("the Responses API reports no cache writes");
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
