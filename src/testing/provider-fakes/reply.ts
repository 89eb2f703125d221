// What a provider fake answers to one request, in provider-neutral terms. Each wire module turns a
// reply into that provider's own server-sent events or error body.

/** Token counts as the AI SDK reports them; each wire module converts to its provider's fields. */
export type FakeUsage = {
  /** Every prompt token, cached ones included. */
  inputTokens: number;
  cacheReadTokens?: number;
  /** Only Anthropic reports cache writes; the OpenAI wires refuse a reply that sets this. */
  cacheWriteTokens?: number;
  /** Includes reasoning tokens, as every provider bills them. */
  outputTokens: number;
  reasoningTokens?: number;
};

export type FakeToolCall = { id: string; name: string; input: Record<string, unknown> };

export type FakeStreamReply = {
  /** Reasoning deltas, streamed before the text. */
  reasoning?: string[];
  /** Text deltas, one event each. */
  text?: string[];
  /** Streamed after the text, their arguments in several fragments each. */
  toolCalls?: FakeToolCall[];
  usage?: FakeUsage;
};

/** An HTTP error before any stream; the wire module picks the provider's error type for the status. */
export type FakeErrorReply = { error: { status: number; message: string } };

export type FakeReply = FakeStreamReply | FakeErrorReply;

export type JsonBody = Record<string, unknown>;

/** Decides the reply to each request: the parsed JSON body and its 0-based position. */
export type FakeScript = (body: JsonBody, index: number) => FakeReply;

/** A provider's HTTP surface: where it listens, and how a reply looks on its wire. */
export type ProviderWire = {
  path: string;
  /** Whole SSE frames (`event:`/`data:` lines and the blank line), in order. */
  streamFrames: (reply: FakeStreamReply, body: JsonBody, index: number) => string[];
  errorBody: (error: FakeErrorReply["error"]) => JsonBody;
};

export function isErrorReply(reply: FakeReply): reply is FakeErrorReply {
  return "error" in reply;
}

/** One SSE frame; the `event:` line is what the Responses and Messages APIs send, Chat Completions omits it. */
export function sseFrame(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** Splits a tool call's JSON arguments into `count` pieces, the way providers stream them mid-token. */
export function argumentFragments(input: Record<string, unknown>, count = 3): string[] {
  const json = JSON.stringify(input);
  const size = Math.ceil(json.length / count);
  const pieces: string[] = [];
  for (let start = 0; start < json.length; start += size) pieces.push(json.slice(start, start + size));
  return pieces;
}

export function joined(deltas: string[] | undefined): string {
  return (deltas ?? []).join("");
}
