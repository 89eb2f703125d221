// One model call, streamed: the AI SDK's own prompt conversion, tool preparation, retries and
// usage accounting around the provider's `doStream`, with its parts read straight off the
// provider's stream. `streamText` would run its multi-step machinery for each step (the turn
// loop and its journal are ours): a pipeline of web TransformStreams, tees and stitched streams
// that cost ~1.7 ms of CPU per step of the offline model on Node 20, against ~0.25 ms this way —
// the largest single item of a turn's CPU in the worker. What comes back is
// what `streamText` reports for a step: the same tool-call parsing (a call of an unknown tool or
// with unparseable input is marked invalid, with the SDK's own error), the same response
// message (provider metadata kept as provider options), the same usage. One difference: for an
// invalid call `streamText` adds a tool message with its own error result; here every call,
// invalid ones included, is answered by the turn loop alone (one result per call id).
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { secureJsonParse } from "@ai-sdk/provider-utils";
import {
  InvalidPromptError,
  InvalidToolInputError,
  JSONParseError,
  NoOutputGeneratedError,
  NoSuchToolError,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
} from "ai";
import {
  asLanguageModelUsage,
  convertToLanguageModelPrompt,
  prepareRetries,
  prepareToolsAndToolChoice,
} from "ai/internal";

/** What a step's assistant message holds (no provider-executed tool results: we pass no provider tools). */
type AssistantPart = Extract<
  Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string>[number],
  { type: "text" | "reasoning" | "tool-call" | "file" }
>;

export type ModelPart =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | { type: "reasoning-end" }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown; invalid?: Error };

/** What the step comes to: its usage and the messages it adds to the conversation. */
export type ModelStepResult = { usage: LanguageModelUsage; response: ModelMessage[] };

export type StreamModelOptions = {
  model: LanguageModelV3;
  system?: string;
  messages: ModelMessage[];
  tools?: ToolSet;
  signal: AbortSignal;
  maxRetries: number;
};

/** Yields the step's parts as they stream and returns its result. A provider's error (thrown or
 * streamed) is thrown, so is the signal's reason once it aborts, and so is a stream that ends
 * with neither output nor its finish part (output without one reports unknown usage), as with
 * `streamText`. */
export async function* streamModel(options: StreamModelOptions): AsyncGenerator<ModelPart, ModelStepResult> {
  const { model, tools, signal } = options;
  // The prompt is not put through the SDK's standardizePrompt: every message here is built by
  // the turn engine, typed (the conversation from the log, the model's own responses, tool
  // results as JSON), and its schema check (a union of unions, tried option by option) cost
  // ~0.4 ms of CPU per step, a tenth of the worker's time per turn.
  if (options.messages.length === 0)
    throw new InvalidPromptError({ prompt: options.messages, message: "messages must not be empty" });
  const prompt = { system: options.system, messages: options.messages };
  const [languageModelPrompt, prepared] = await Promise.all([
    convertToLanguageModelPrompt({
      prompt,
      supportedUrls: await model.supportedUrls,
      download: undefined,
      abortSignal: signal,
    }),
    prepareToolsAndToolChoice({ tools, toolChoice: undefined, activeTools: undefined }),
  ]);
  const { retry } = prepareRetries({ maxRetries: options.maxRetries, abortSignal: signal });
  const { stream } = await retry(() =>
    model.doStream({
      prompt: languageModelPrompt,
      tools: prepared.tools,
      toolChoice: prepared.toolChoice,
      abortSignal: signal,
    }),
  );
  const content = new ResponseContent();
  let usage: LanguageModelUsage | undefined;
  let hasOutput = false;
  const reader = stream.getReader();
  // A stop ends the read in progress even if the provider does not watch the signal.
  const onAbort = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener("abort", onAbort, { once: true });
  let isDone = false;
  try {
    // Stopped while the request was being made.
    signal.throwIfAborted();
    for (;;) {
      const { done, value: part } = await reader.read();
      signal.throwIfAborted();
      if (done) break;
      if (part.type === "error") throw part.error;
      hasOutput ||= outputParts.has(part.type);
      if (part.type === "finish") usage = asLanguageModelUsage(part.usage);
      else if (part.type === "tool-call") {
        const call = parseToolCall(part, tools);
        content.addCall(part, call);
        yield call;
      } else {
        content.add(part);
        if (part.type === "text-delta" && part.delta) yield { type: "text-delta", text: part.delta };
        else if (part.type === "reasoning-delta" && part.delta) yield { type: "reasoning-delta", text: part.delta };
        else if (part.type === "reasoning-end") yield { type: "reasoning-end" };
      }
    }
    isDone = true;
    if (!usage && !hasOutput)
      throw new NoOutputGeneratedError({
        message: "No output generated. The model stream ended without a finish chunk.",
      });
  } finally {
    signal.removeEventListener("abort", onAbort);
    // A consumer that stops early (or a failure) ends the provider's stream too.
    if (!isDone) void reader.cancel().catch(() => undefined);
  }
  return { usage: usage ?? unknownUsage, response: content.messages() };
}

/** As the SDK parses a call: the tool must exist and its input must be JSON (empty means {}),
 * parsed as securely (no __proto__ or constructor.prototype keys). An invalid call keeps whatever
 * of its input parses. */
function parseToolCall(
  part: Extract<LanguageModelV3StreamPart, { type: "tool-call" }>,
  tools: ToolSet | undefined,
): Extract<ModelPart, { type: "tool-call" }> {
  const { toolCallId, toolName } = part;
  let input: unknown = part.input;
  let parseError: unknown;
  try {
    input = part.input.trim() === "" ? {} : secureJsonParse(part.input);
  } catch (error) {
    parseError = error;
  }
  const invalid = !tools?.[toolName]
    ? new NoSuchToolError({ toolName, availableTools: Object.keys(tools ?? {}) })
    : parseError !== undefined
      ? new InvalidToolInputError({
          toolName,
          toolInput: part.input,
          cause: new JSONParseError({ text: part.input, cause: parseError }),
        })
      : undefined;
  return { type: "tool-call", toolCallId, toolName, input, ...(invalid ? { invalid } : {}) };
}

/** The assistant message of a step, built as the SDK builds it: text and reasoning blocks in the
 * order they started, each with its provider metadata (a reasoning block's signature must go back
 * to the provider), tool calls and files where they came. */
class ResponseContent {
  private readonly parts: AssistantPart[] = [];
  private readonly open = new Map<string, Extract<AssistantPart, { type: "text" | "reasoning" }>>();

  add(part: LanguageModelV3StreamPart) {
    switch (part.type) {
      case "text-start":
      case "reasoning-start": {
        const block = {
          type: part.type === "text-start" ? ("text" as const) : ("reasoning" as const),
          text: "",
          ...metadata(part),
        };
        this.open.set(`${block.type}:${part.id}`, block);
        this.parts.push(block);
        return;
      }
      case "text-delta":
      case "reasoning-delta":
      case "text-end":
      case "reasoning-end": {
        const key = `${part.type.startsWith("text") ? "text" : "reasoning"}:${part.id}`;
        const block = this.open.get(key);
        if (!block) return;
        if ("delta" in part) block.text += part.delta;
        if (part.providerMetadata) block.providerOptions = part.providerMetadata;
        if (part.type.endsWith("-end")) this.open.delete(key);
        return;
      }
      case "file":
        this.parts.push({
          type: "file",
          data: typeof part.data === "string" ? part.data : Buffer.from(part.data).toString("base64"),
          mediaType: part.mediaType,
          ...metadata(part),
        });
        return;
    }
  }

  addCall(
    part: Extract<LanguageModelV3StreamPart, { type: "tool-call" }>,
    call: Extract<ModelPart, { type: "tool-call" }>,
  ) {
    this.parts.push({
      type: "tool-call",
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      // An invalid call's input that is no object goes back to the model as an empty one.
      input: call.invalid && (typeof call.input !== "object" || call.input === null) ? {} : call.input,
      ...(part.providerExecuted !== undefined ? { providerExecuted: part.providerExecuted } : {}),
      ...metadata(part),
    });
  }

  messages(): ModelMessage[] {
    const content = this.parts.filter((part) => !(part.type === "text" && part.text.length === 0));
    return content.length > 0 ? [{ role: "assistant", content }] : [];
  }
}

function metadata(part: { providerMetadata?: AssistantPart["providerOptions"] }) {
  return part.providerMetadata ? { providerOptions: part.providerMetadata } : {};
}

/** The parts that count as the model's output (the SDK's own list). */
const outputParts = new Set<string>([
  "file",
  "source",
  "text-start",
  "text-end",
  "text-delta",
  "reasoning-start",
  "reasoning-end",
  "reasoning-delta",
  "tool-input-start",
  "tool-input-end",
  "tool-input-delta",
  "tool-approval-request",
  "tool-call",
  "tool-result",
  "tool-error",
]);

const unknownUsage = asLanguageModelUsage({
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
});
