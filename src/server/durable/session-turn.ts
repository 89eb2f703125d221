// One run of a session's turn, by the session's invocation or by an eager run (eager-run.ts):
// run-turn.ts runs it; a run that throws ends the turn early (turn-ends.ts), unless the turn is
// not this run's to end (handed over, superseded, or retried). Each run has its own span.
import * as restate from "@restatedev/restate-sdk";
import { queueTurn } from "@/server/sessions/queue-turn";
import type { SpanScope } from "@/server/telemetry/span-scope";
import { endRun, turnScope } from "@/server/telemetry/turn-telemetry";
import type { TurnCancellations } from "@/server/turns/cancellation";
import type { Step, TurnDeps, TurnEnd } from "@/server/turns/engine";
import { runTurn } from "@/server/turns/run-turn";
import { SupersededRun, type TurnJournal } from "@/server/turns/step-journal";
import type { TurnRequest } from "./runtime";
import { HandOver, NotFirst, runtimeOf, type TurnDurable } from "./turn-durable";
import { endTurnEarly, failedEnd, leftoverTurn } from "./turn-ends";
import type { WorkerDeps } from "./worker-deps";

const defaultApprovalTimeoutMs = 24 * 60 * 60 * 1000;

/** What an eager run adds to the turn's deps. */
type RunOptions = Pick<TurnDeps, "opensSession" | "mayHavePending" | "setupRow">;

/** One run of a turn, as its parts below share it. */
type TurnRun = {
  deps: WorkerDeps;
  current: TurnRequest;
  journal: TurnJournal;
  durable: TurnDurable;
  tracked: ReturnType<TurnCancellations["track"]>;
  step: Step;
  /** The step body running now (see trackedSteps). */
  inflight: () => Promise<unknown>;
  trace: SpanScope;
  runStartedAt: number;
  /** How the run ended, for its span: set as the run learns it. */
  end: { outcome: string; error?: string };
};

/** One turn of the session; answers the turn this invocation runs next (a drained follow-up). */
export async function runSessionTurn(
  deps: WorkerDeps,
  current: TurnRequest,
  journal: TurnJournal,
  durable: TurnDurable,
  options: RunOptions = {},
): Promise<TurnRequest | undefined> {
  const tracked = deps.cancellations.track(current.turnId);
  const { step, inflight } = trackedSteps(journal);
  // One span per run that does work; every run of the turn shares its trace (docs/telemetry.md).
  const runStartedAt = Date.now();
  const trace = turnScope(deps.telemetry, current, runStartedAt);
  const run: TurnRun = {
    deps,
    current,
    journal,
    durable,
    tracked,
    step,
    inflight,
    trace,
    runStartedAt,
    end: { outcome: "completed" },
  };
  try {
    return await runToEnd(run, options);
  } catch (error) {
    const early = await earlyEnd(run, error);
    if (!early) return undefined;
    // Not awaited: the run's cancellation is released and its span ended as the end's recording
    // begins, not once it is done.
    return endTurnEarly(deps, durable, current, early.end, early.epoch, runStartedAt);
  } finally {
    tracked.release();
    endRun(trace, run.end);
  }
}

/** The journal's step, and the step body it runs now. */
function trackedSteps(journal: TurnJournal): { step: Step; inflight: () => Promise<unknown> } {
  // The step body now running: a cancellation waits for it to settle before recording
  // the end, so no delta lands after turn.failed.
  let inflight: Promise<unknown> = Promise.resolve();
  const step: Step = (name, action) =>
    journal.step(name, (seal) => {
      const running = action(seal);
      inflight = running.catch(() => undefined);
      return running;
    });
  return { step, inflight: () => inflight };
}

/** Runs the turn (run-turn.ts) and answers the follow-up its sends drained into; a stopped turn
 * has recorded its own end, and what was sent meanwhile is queued as a new invocation. */
async function runToEnd(run: TurnRun, options: RunOptions): Promise<TurnRequest | undefined> {
  const { deps, current, journal, durable, tracked, step } = run;
  const approvals = { timeoutMs: deps.approvalTimeoutMs ?? defaultApprovalTimeoutMs, park: durable.park };
  // A stop asked before this run began (it is a retry) still stops it.
  const started = journal.stopRequested().then((asked) => void (asked && tracked.abort()));
  const { next, stopped } = await runTurn(
    {
      ...deps,
      awakeable: durable.awakeable,
      resolveAwakeable: durable.resolveAwakeable,
      approvals,
      step,
      settled: journal.settled,
      earlier: journal.earlier,
      signal: tracked.signal,
      started,
      trace: run.trace,
      runStartedAt: run.runStartedAt,
      ...options,
    },
    current,
  );
  if (!stopped) return next;
  run.end = { outcome: "cancelled" };
  // Stopped or preempted, and the turn saw it first: it recorded its own end. Restate's
  // cancellation of this invocation is on its way, so sends coalesced meanwhile run in a new
  // invocation, queued through the ingress where that cancellation cannot reach them.
  const leftover =
    next ??
    (await step<TurnRequest | undefined>(`${current.turnId}:leftover`, (seal) =>
      leftoverTurn(deps, current.sessionId, seal),
    ));
  if (leftover)
    await step(`${leftover.turnId}:queued`, () =>
      queueTurn({ db: deps.db, runtime: runtimeOf(deps), turn: leftover, mode: "chat" }),
    );
  return undefined;
}

/**
 * What a run that threw leaves to record: the turn's end, under the epoch this run holds. It
 * rethrows what is not this run's to end (a hand-over, a superseded run, a retry: failedEnd), and
 * answers nothing when another run holds the turn.
 */
async function earlyEnd(run: TurnRun, error: unknown): Promise<{ end: TurnEnd; epoch: number } | undefined> {
  const { deps, current, journal, tracked } = run;
  const { ctx } = run.durable;
  run.end = { outcome: runOutcomeOf(error), error: error instanceof Error ? error.message : String(error) };
  if (error instanceof HandOver || error instanceof SupersededRun || error instanceof NotFirst) throw error;
  // Only a run that holds the turn records its end; an eager run another run came before leaves it.
  const epoch = await journal.epoch().catch(() => {
    throw error;
  });
  if (epoch === undefined) {
    if (!ctx) throw new NotFirst();
    return undefined;
  }
  // Whatever failed, a turn someone stopped (during this attempt, or while it waited out a
  // retry's backoff) ends as stopped.
  const isStopped =
    (ctx !== undefined && error instanceof restate.CancelledError) ||
    tracked.signal.aborted ||
    (await journal.stopRequested().catch(() => false));
  tracked.abort();
  await run.inflight();
  // Appends steps did not wait for are written before the end (their failure changes nothing now).
  await journal.settled().catch(() => undefined);
  const end = isStopped ? ({ kind: "cancelled" } as const) : await failedEnd(deps, current, error);
  run.end = end.kind === "failed" ? { outcome: "failed", error: end.message } : { outcome: end.kind };
  return { end, epoch };
}

/** How a run that threw ended, for its span: handed to the invocation, taken over, or retried. */
function runOutcomeOf(error: unknown): string {
  if (error instanceof HandOver) return "handed_over";
  if (error instanceof SupersededRun || error instanceof NotFirst) return "superseded";
  return "retried";
}
