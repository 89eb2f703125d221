// One tool call, run inside one journaled step. The call's `action.result` is the proof that it
// ran: a step replayed after a crash finds it and returns it, so a completed call never runs
// twice. Reads are retried on failure (bounded, with backoff, each retry recorded); writes never
// are, and run at most once even across crashes (claimed before they run). Dry-run sessions answer
// writes with a stub. Aborting (stop, preempt) ends the call at once.
import type { PrismaClient } from "@prisma/client";
import type { Context } from "@opentelemetry/api";
import { runTool } from "@/agents/runtime/run-tool";
import { sleep } from "@/agents/runtime/models/local-scripted";
import type { ToolRunResult } from "@/agents/sandbox/protocol";
import type { Principal } from "@/agents/sdk/types";
import type { Sandbox } from "@/agents/sandbox/sandbox";
import { appendEvents, type NewEvent } from "@/server/events/append-events";
import { noSpan, type SpanScope } from "@/server/telemetry/span-scope";
import type { Telemetry } from "@/server/telemetry/telemetry";
import { recordToolCall, toolCallScope } from "@/server/telemetry/turn-telemetry";
import type { EarlierRun, Seal, Spend, ToolCallRequest, ToolCallResult, TurnSetup, Verdict } from "./engine";
import { addSpend } from "./model-step";
import { deferStepRecord } from "./step-journal";
import { failed, succeeded, type ToolOutcome } from "./tool-output";
import type { ToolSpec } from "./turn-tools";
import { sessionInfo } from "./turn-setup";

export type ToolCallEnv = {
  db: PrismaClient;
  earlier: EarlierRun;
  setup: TurnSetup;
  turnId: string;
  /** Prefix of the call's idempotency keys (the turn's, or a subagent run's). */
  keyPrefix: string;
  tools: ToolSpec[];
  sandbox: () => Sandbox;
  signal: AbortSignal;
  /** Backoff before retry n (2, 3, …) of a read. */
  retryDelayMs?: (attempt: number) => number;
  telemetry?: Telemetry;
  /** The loop step's span: the call's own goes under it. */
  trace?: SpanScope;
};

export const maxReadAttempts = 3;
const defaultRetryDelay = (attempt: number) => 250 * 2 ** (attempt - 2);
// A write an earlier run started is awaited for the tool's timeout (the sandbox's default, 60 s,
// for tools without their own) and a margin for its result's append.
const defaultToolTimeoutMs = 60_000;
const resultMarginMs = 5_000;

// Outcomes of calls that ran but whose result could not be appended yet (the database went away
// meanwhile): a run of the turn again in this process — the engine's retry — returns them instead
// of running the call again. Bounded; a retry that lands on another worker finds nothing here: it
// runs a read again (at least once, docs/turns.md "Failures"), and finds a write claimed.
const unwritten = new Map<string, ToolCallResult>();
const maxUnwritten = 1_000;

function keepUnwritten(key: string, outcome: ToolCallResult, written: Promise<unknown>): void {
  if (unwritten.size >= maxUnwritten) unwritten.delete(unwritten.keys().next().value!);
  unwritten.set(key, outcome);
  written.then(
    () => unwritten.delete(key),
    () => undefined,
  );
}

/** With `deferRecord` (read tools), the call returns once its result is handed to group commit;
 * the journal checks the record with the next step (step-journal.ts). */
export async function runToolCall(
  env: ToolCallEnv,
  call: ToolCallRequest,
  verdict: Verdict = {},
  seal?: Seal<ToolCallResult>,
  options: { deferRecord?: boolean } = {},
): Promise<ToolCallResult & Partial<Spend>> {
  const { db, setup, turnId } = env;
  const sessionId = setup.session.id;
  const resultKey = `${env.keyPrefix}:${call.callId}:result`;
  const unwrittenKey = `${sessionId}\t${resultKey}`;
  const recorded = (await env.earlier.recorded(resultKey)) as ToolOutcome | undefined;
  if (recorded) {
    return {
      output: recorded.output ?? null,
      isError: recorded.isError,
      ...(recorded.stubbed ? { stubbed: true } : {}),
    };
  }
  const append = (events: NewEvent[]) =>
    appendEvents({ db, sessionId, events: events.map((event) => ({ turnId, ...event })) });
  // What the host spent for the call's code (decide) goes in its journaled result, and so in the turn's usage.
  let spent: Spend | undefined;
  const meter = (more: Spend) => void (spent = spent ? addSpend(spent, more) : more);
  const ran =
    unwritten.get(unwrittenKey) ??
    (await tracedCall(env, call, (trace) =>
      verdict.denied
        ? Promise.resolve(failed(verdict.denied))
        : execute(env, call, append, { approvedBy: verdict.approvedBy, trace, meter }),
    ));
  const outcome: ToolCallResult & Partial<Spend> = spent ? { ...ran, ...(spent as Spend) } : ran;
  // The result and the step's journal record commit together.
  const data = {
    callId: call.callId,
    toolName: call.toolName,
    output: outcome.output,
    isError: outcome.isError,
    ...(outcome.stubbed ? { stubbed: true } : {}),
  };
  const record = seal?.(outcome);
  const isDeferred = record !== undefined && options.deferRecord === true;
  // A write's result is a fact, not a step: it goes in even once a newer run holds the turn, which
  // may be waiting for it (claimWrite) rather than run the write again.
  const isWrite = env.tools.find((spec) => spec.name === call.toolName)?.effect === "write";
  const written = appendEvents({
    db,
    sessionId,
    step: record,
    events: [{ type: "action.result", turnId, data, idempotencyKey: resultKey }],
    linger: isDeferred,
    unfenced: isWrite,
  });
  if (!outcome.cancelled) keepUnwritten(unwrittenKey, outcome, written);
  if (record && isDeferred) {
    deferStepRecord(record, written);
    return outcome;
  }
  await written;
  return outcome;
}

/** The call's run, with its span (agent code's spans go under it) and its metrics. */
async function tracedCall(
  env: ToolCallEnv,
  call: ToolCallRequest,
  run: (trace: Context | undefined) => Promise<ToolCallResult>,
): Promise<ToolCallResult> {
  const span = toolCallScope(env.trace ?? noSpan, call);
  const record = { agentId: env.setup.session.agentId, toolName: call.toolName };
  try {
    const outcome = await run(span.context());
    const error = outcome.isError && typeof outcome.output === "string" ? outcome.output : undefined;
    recordToolCall(env.telemetry, span, { ...record, isError: outcome.isError, error });
    return outcome;
  } catch (error) {
    recordToolCall(env.telemetry, span, { ...record, isError: true, error: String(error) });
    throw error;
  }
}

/** Who approved the call, the span its code's spans go under, and what takes the host's spending. */
type CallScope = { approvedBy?: Principal; trace?: Context; meter?: (spent: Spend) => void };

async function execute(
  env: ToolCallEnv,
  call: ToolCallRequest,
  append: (events: NewEvent[]) => Promise<unknown>,
  scope: CallScope,
): Promise<ToolCallResult> {
  if (env.signal.aborted) return { ...failed("cancelled: the turn was stopped"), cancelled: true };
  if (call.invalid) return failed(call.invalid);
  const spec = env.tools.find((candidate) => candidate.name === call.toolName);
  if (!spec || spec.kind === "task") return failed(`there is no tool named ${call.toolName}`);
  if (env.setup.session.dryRun && spec.effect === "write") {
    // The tool's own stand-in when it has one (BDK's dryRunResult), else the platform's.
    if (spec.kind === "agent" && spec.tool.dryRunResult) {
      const standIn = await attemptOnce(env, spec, call, scope, true);
      return { ...(standIn.ok ? succeeded(standIn.output) : failed(standIn.error)), stubbed: true };
    }
    return {
      output: `dry run: ${call.toolName} was not run (write tools are stubbed in dry-run sessions)`,
      isError: false,
      stubbed: true,
    };
  }
  // A write runs at most once: it is claimed in the journal before it runs, and a run of the turn
  // that finds an earlier run's claim does not run it again (docs/turns.md, "Journaled steps").
  if (spec.effect !== "read" && !spec.isIdempotent) {
    const claim = await env.earlier.claimWrite(
      { claim: `${env.keyPrefix}:${call.callId}:claim`, result: `${env.keyPrefix}:${call.callId}:result` },
      (spec.kind === "agent" ? (spec.tool.timeoutMs ?? defaultToolTimeoutMs) : defaultToolTimeoutMs) + resultMarginMs,
      env.signal,
    );
    if (claim.earlier) return earlierWrite(env, call, claim.result as ToolOutcome | undefined);
  }
  const attempts = spec.effect === "read" ? maxReadAttempts : 1;
  const delay = env.retryDelayMs ?? defaultRetryDelay;
  for (let attempt = 1; ; attempt++) {
    const result = await attemptOnce(env, spec, call, scope);
    if (env.signal.aborted) return { ...failed("cancelled: the turn was stopped"), cancelled: true };
    if (result.ok) return succeeded(result.output);
    if (result.invalidInput || attempt >= attempts) return failed(result.error);
    await append([
      {
        type: "action.tool_retry",
        data: { callId: call.callId, toolName: call.toolName, attempt: attempt + 1, error: result.error },
        idempotencyKey: `${env.keyPrefix}:${call.callId}:retry${attempt + 1}`,
      },
    ]);
    try {
      await sleep(delay(attempt + 1), env.signal);
    } catch {
      return { ...failed("cancelled: the turn was stopped"), cancelled: true };
    }
  }
}

/** A write an earlier run of the turn started and did not record before this run began: its
 * result once that run appended it (a Restate node that died handed the invocation to a new
 * attempt while the old one went on), else a failure that says so. */
function earlierWrite(env: ToolCallEnv, call: ToolCallRequest, result: ToolOutcome | undefined): ToolCallResult {
  if (env.signal.aborted) return { ...failed("cancelled: the turn was stopped"), cancelled: true };
  if (result) return { output: result.output ?? null, isError: result.isError };
  return failed(
    `interrupted: ${call.toolName} was started by an earlier run of this turn that was cut off ` +
      "(its worker stopped); it may or may not have taken effect, so it was not run again",
  );
}

async function attemptOnce(
  env: ToolCallEnv,
  spec: Exclude<ToolSpec, { kind: "task" }>,
  call: ToolCallRequest,
  { approvedBy, trace, meter }: CallScope,
  isDryRun = false,
): Promise<ToolRunResult> {
  if (spec.kind === "builtin") {
    try {
      return { ok: true, output: await spec.execute(call.input, { callId: call.callId, signal: env.signal }) };
    } catch (error) {
      return { ok: false, error: `${spec.name}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const { session, workspaceDir, stateRoot } = env.setup;
  return runTool({
    sandbox: env.sandbox(),
    tool: spec.tool,
    input: call.input,
    signal: env.signal,
    isDryRun,
    hostContext: {
      agentId: session.agentId,
      versionId: session.versionId,
      bundlePath: env.setup.bundlePath,
      sessionId: session.id,
      turnId: env.turnId,
      principal: session.auth,
      ...(trace ? { trace } : {}),
      ...(meter ? { spend: meter } : {}),
    },
    context: {
      toolCallId: call.callId,
      session: sessionInfo(env.setup),
      ...(approvedBy ? { approvedBy } : {}),
      workspaceDir,
      stateRoot,
    },
  });
}
