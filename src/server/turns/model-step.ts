// One model step: stream the model's answer into the event log and return what the loop needs
// (text, tool calls, the assistant message, usage). It runs inside one journaled step; if the
// worker dies mid-stream, the step runs again as a new attempt, announced by a `step.started`
// with `attempt`, so a reader can drop the cut-off attempt's deltas instead of seeing them twice.
import type { PrismaClient } from "@prisma/client";
import { jsonSchema, tool, type ModelMessage, type ToolSet } from "ai";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Usage } from "@/agents/sdk/events";
import { appendEvents, type NewEvent, type StepRecord } from "@/server/events/append-events";
import { pipelinedAppender, type JoinEvents } from "@/server/events/pipelined-appender";
import type { EarlierRun, ModelStepOutcome, Seal, Spend, ToolCallRequest } from "./engine";
import { deferStepRecord } from "./step-journal";
import { streamModel } from "./stream-model";
import { classifyFailure } from "./turn-failure";
import type { ToolSpec } from "./turn-tools";

export type ModelStepOptions = {
  db: PrismaClient;
  /** What an earlier run of the turn recorded (a re-run step is a new attempt). */
  earlier: EarlierRun;
  sessionId: string;
  turnId: string;
  /** Prefix of this step's idempotency keys: the turn, or the turn and a subagent call. */
  keyPrefix: string;
  step: number;
  model: LanguageModelV3;
  system: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
  parentCallId?: string;
  /** The result contract's feedback this step answers. */
  repair?: string;
  /** The step's journal record for its outcome: it goes with the step's last events. */
  seal?: Seal<ModelStepOutcome>;
  /** A final answer (no tool calls) may return before its last append is stored, as a step asking
   * for tools always does: the step's record is deferred (step-journal.ts), and the turn's next
   * append (its finish) is written with it, in the same statement when nothing else is in flight. */
  deferRecord?: boolean;
  /** Events recorded first, in the same append (turn.started; the previous batch's close). */
  leading?: NewEvent[];
  /** Messages steered into the turn before this step (coalesced sends: docs/turns.md "Admission and stop"), including
   * those an attempt cut off by a crash already took. Before recording a nudge it awaits
   * `stored`: the leading events go first in the log. */
  steer?: (stored: () => Promise<void>) => Promise<ModelMessage[]>;
};

/** How long a step's first events wait for more before they are appended. */
const firstAppendLingerMs = 5;

/** Deltas of one text that wait for the same append are one delta (the first one's key: a step's
 * keys are its attempt's, so a run of the step again never meets them). */
export const joinDeltas: JoinEvents = (queued, next) => {
  if (queued.type !== next.type || (next.type !== "message.appended" && next.type !== "reasoning.appended"))
    return undefined;
  const [a, b] = [queued.data as { delta: string }, next.data as { delta: string }];
  if (Object.keys(a).length !== 1 || Object.keys(b).length !== 1 || queued.turnId !== next.turnId) return undefined;
  return { ...queued, data: { delta: a.delta + b.delta } };
};

export function toolSet(specs: ToolSpec[]): ToolSet {
  return Object.fromEntries(
    specs.map((spec) => [
      spec.name,
      tool({ description: spec.description, inputSchema: jsonSchema(spec.inputSchema as never) }),
    ]),
  );
}

export async function runModelStep(options: ModelStepOptions): Promise<ModelStepOutcome> {
  const { db, sessionId, turnId, step, signal, parentCallId } = options;
  const startedAt = Date.now();
  // Decided inside the journaled step, so a re-run after a stop cannot carry on.
  if (signal.aborted) return { kind: "cancelled" };
  const stepKey = `${options.keyPrefix}:s${step}`;
  const attempt = 1 + (await options.earlier.startedAttempts(stepKey));
  const key = (suffix: string) => `${stepKey}.${attempt}:${suffix}`;
  // A step that returns before its record is stored lets that last append linger for the turn's
  // next one (group-commit.ts): a fast turn then writes its steps and its end in one statement.
  let isDeferred = false;
  const append = (events: NewEvent[], record?: StepRecord) =>
    appendEvents({
      db,
      sessionId,
      events: events.map((event) => ({ turnId, ...event })),
      step: record,
      linger: record !== undefined && isDeferred,
    });
  // Subagents' text is their answer to the parent, reported in subagent.completed; only the
  // root agent's text streams as the reply.
  const isRoot = parentCallId === undefined;
  // Everything this step records goes through one ordered pipeline; the step waits for it at the
  // end. Its first append lingers a moment: a model that answers at once costs one append.
  const out = pipelinedAppender(append, { lingerMs: firstAppendLingerMs, join: joinDeltas });
  if (options.leading?.length) out.push(...options.leading);
  const steered = options.steer ? await options.steer(() => out.flush()) : [];
  out.push({
    type: "step.started",
    data: {
      step,
      ...(attempt > 1 ? { attempt } : {}),
      ...(options.repair ? { repair: options.repair } : {}),
      ...(parentCallId ? { parentCallId } : {}),
    },
    idempotencyKey: key("started"),
  });
  let text = "";
  let reasoning = "";
  let deltas = 0;
  let reasoningBlocks = 0;
  const toolCalls: ToolCallRequest[] = [];
  try {
    const parts = streamModel({
      model: options.model,
      system: options.system || undefined,
      messages: [...options.messages, ...steered],
      tools: options.tools.length > 0 ? toolSet(options.tools) : undefined,
      signal,
      maxRetries: 1,
    });
    const closeReasoning = () => {
      // A step may think in several blocks (OpenAI summary parts, Anthropic interleaved thinking).
      if (reasoning && isRoot)
        out.push({
          type: "reasoning.completed",
          data: { text: reasoning },
          idempotencyKey: key(`reasoning${reasoningBlocks++}`),
        });
      reasoning = "";
    };
    // The parts as they stream, then (the generator's return value) the step's usage and response.
    let next = await parts.next();
    for (; !next.done; next = await parts.next()) {
      const part = next.value;
      if (part.type === "reasoning-delta") {
        reasoning += part.text;
        if (isRoot)
          out.push({ type: "reasoning.appended", data: { delta: part.text }, idempotencyKey: key(`d${deltas++}`) });
      } else if (part.type === "reasoning-end") {
        closeReasoning();
      } else if (part.type === "text-delta") {
        closeReasoning();
        text += part.text;
        if (isRoot)
          out.push({ type: "message.appended", data: { delta: part.text }, idempotencyKey: key(`d${deltas++}`) });
      } else {
        const invalid = part.invalid ? `invalid call of ${part.toolName}: ${part.invalid.message}` : undefined;
        toolCalls.push({
          callId: part.toolCallId,
          toolName: part.toolName,
          input: part.input ?? null,
          ...(parentCallId ? { parentCallId } : {}),
          ...(invalid ? { invalid } : {}),
        });
      }
    }
    closeReasoning();
    const { usage, response } = next.value;
    const outcome: ModelStepOutcome = {
      kind: "ok",
      text,
      toolCalls,
      steered,
      response,
      startedAt,
      usage: {
        inputTokens: usage.inputTokens ?? 0,
        outputTokens: usage.outputTokens ?? 0,
        cacheReadTokens: usage.inputTokenDetails?.cacheReadTokens ?? 0,
        cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens ?? 0,
        ...(usage.outputTokenDetails?.reasoningTokens
          ? { reasoningTokens: usage.outputTokenDetails.reasoningTokens }
          : {}),
      },
    };
    // The step's last event carries its journal record: both commit in one statement.
    const record = options.seal?.(outcome);
    isDeferred = record !== undefined && (toolCalls.length > 0 || options.deferRecord === true);
    if (toolCalls.length > 0) {
      const calls = toolCalls.map((call) => ({
        callId: call.callId,
        toolName: call.toolName,
        args: call.input as never,
        ...(call.parentCallId ? { parentCallId: call.parentCallId } : {}),
      }));
      out.end(record, { type: "actions.requested", data: { calls }, idempotencyKey: key("actions") });
    } else {
      // A step with tool calls closes after its tools have answered (agent-loop.ts).
      const data = { step, durationMs: Date.now() - startedAt, ...(parentCallId ? { parentCallId } : {}) };
      out.end(record, { type: "step.completed", data, idempotencyKey: `${stepKey}:completed` });
    }
    // A step asking for tools never waits for its record: what its calls may do before it is
    // stored waits for it (agent-loop.ts, gate-approvals.ts); a final answer waits unless told.
    if (record && isDeferred) {
      deferStepRecord(record, out.flush());
      await out.dispatched();
      return outcome;
    }
    await out.flush();
    return outcome;
  } catch (error) {
    // What was recorded before the failure stays recorded; a failed append surfaces here too.
    await out.flush().catch(() => undefined);
    if (signal.aborted) return { kind: "cancelled" };
    // A provider that is away for now (5xx, 429, the network) or a database that is: the step runs
    // again as the turn's next attempt (turn-failure.ts bounds them). Anything else ends the turn.
    const failure = classifyFailure(error);
    if (failure.isRetryable) throw error;
    return { kind: "failed", message: failure.message, code: failure.code };
  }
}

export function addUsage(total: Usage, more: Usage): Usage {
  const reasoning = (total.reasoningTokens ?? 0) + (more.reasoningTokens ?? 0);
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    cacheReadTokens: total.cacheReadTokens + more.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens + more.cacheWriteTokens,
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}

/** Two spends together; a cost unknown in either is unknown in the sum. */
export function addSpend(total: Spend, more: Spend): Spend {
  return {
    usage: addUsage(total.usage, more.usage),
    costUsd: total.costUsd === null || more.costUsd === null ? null : total.costUsd + more.costUsd,
  };
}

export const zeroUsage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
