// The `session` virtual object: a session's turns, one at a time, and the eager run of a new
// session's first turn that shares its code. Handler bodies orchestrate named steps; domain logic
// lives in src/server/<domain>.
import * as restate from "@restatedev/restate-sdk";
import { workspaceDir } from "@/server/agents/storage";
import { poolOf } from "@/server/db";
import { queueTurn, sendRecordedTurn } from "@/server/sessions/queue-turn";
import { recordInvocation } from "@/server/sessions/record-invocation";
import { countFailedAttempt } from "@/server/turns/failed-attempts";
import { finishTurn, startLeftoverTurn } from "@/server/turns/finish-turn";
import { classifyFailure, exhausted } from "@/server/turns/turn-failure";
import { handOnSlot, runTurn } from "@/server/turns/run-turn";
import { readEagerTurnStart } from "@/server/turns/turn-setup";
import type { ApprovalWaits, Seal, Step, TurnDeps, TurnEnd } from "@/server/turns/engine";
import { SupersededRun, turnJournal, type TurnJournal } from "@/server/turns/step-journal";
import { endRun, recordTurnEnd, turnScope } from "@/server/telemetry/turn-telemetry";
import type { EagerRunHints } from "@/server/worker/eager-turns";
import { backoff, defaultRetryBound, type RetryBound } from "./retry-bound";
import type { DurableRuntime, TurnRequest } from "./runtime";
import type { WorkerDeps } from "./worker-deps";
import { logForSession } from "@/server/logging/log-for-session";
import { errorFields, processLogger } from "@/server/logging/logger";

type SessionHandlers = { runTurn: (ctx: restate.ObjectContext, turn: TurnRequest) => Promise<void> };
/** How other handlers send a turn to a session's object. */
export const sessionDefinition = { name: "session" } as restate.VirtualObjectDefinition<"session", SessionHandlers>;

const defaultApprovalTimeoutMs = 24 * 60 * 60 * 1000;

/** Restate's retry policy for a bound. Attempts are counted by the turn itself, in Postgres
 * (failed-attempts.ts): an attempt that cannot reach the database cannot record its end either,
 * so Restate's own limit is only a backstop, ten times as high, that pauses the invocation
 * (a stop resumes it, and it then records its end). */
function retryPolicy(bound: RetryBound) {
  return { ...backoff(bound), maxAttempts: bound.attempts * 10, onMaxAttempts: "pause" as const };
}

/**
 * One virtual object per session (key = session id): Restate runs one invocation at a time per
 * key, so turns of a session never overlap. A turn whose coalesced sends drained into a follow-up
 * runs that follow-up in the same invocation. A new session's first turn usually runs without
 * one, from its commit (src/server/worker/eager-turns.ts); an invocation of it takes over what
 * that run leaves.
 */
export function sessionObject(deps: WorkerDeps) {
  return restate.object({
    name: "session",
    handlers: {
      runTurn: async (ctx: restate.ObjectContext, first: TurnRequest): Promise<void> => {
        const ran: string[] = [first.turnId];
        const durable: TurnDurable = {
          ctx,
          awakeable: () => ctx.awakeable<void>(),
          resolveAwakeable: (id: string) => ctx.resolveAwakeable(id),
          park: (timeoutMs: number) => {
            const { id, promise } = ctx.awakeable<unknown>();
            return { id, promise: promise.orTimeout(timeoutMs) };
          },
        };
        // Finished by its eager run, which handed anything left to its own invocation.
        if (await deps.eager?.finished(first.turnId)) return;
        let turn: TurnRequest | undefined = first;
        while (turn) {
          if (turn !== first) ran.push(turn.turnId);
          turn = await runSessionTurn(
            deps,
            turn,
            turnJournal(deps.db, turn, [...ran], { workerKey: deps.eager?.workerKey }),
            durable,
          );
        }
      },
    },
    // A turn's steps are journaled in Postgres, not in Restate: a whole turn may send Restate
    // nothing until it ends. Restate asks a run that was silent for the inactivity timeout to
    // suspend (a turn waiting on an approval does) and aborts one that cannot (a turn still
    // working) after the abort timeout; its retry would supersede the run. So both are long: a
    // turn has up to seven hours of work (25 model steps, tools of up to 15 minutes each).
    options: {
      inactivityTimeout: { hours: 1 },
      abortTimeout: { hours: 6 },
      retryPolicy: retryPolicy(deps.retry ?? defaultRetryBound),
    },
  });
}

/** What a turn asks of the durable engine beyond its journal. Without `ctx` (an eager run) each
 * of these hands the turn over to the session's invocation instead. */
type TurnDurable = Pick<TurnDeps, "awakeable" | "resolveAwakeable"> & {
  park: ApprovalWaits["park"];
  ctx?: restate.ObjectContext;
};

/** An eager run met something only the session's invocation can do (wait on an awakeable). */
export class HandOver extends Error {}

const handOver = (): never => {
  throw new HandOver("the turn waits on the engine: its invocation takes it over");
};

/** An eager run that found another run had taken the turn before it began: it leaves the turn to it. */
class NotFirst extends Error {}

/**
 * Runs a new session's first turn as soon as its commit is announced, with no invocation
 * (src/server/worker/eager-turns.ts), by the worker the session's start named. It runs under the epoch that start
 * gave the session, and only while no other run has taken a later one, so it never runs beside
 * an invocation's run. What it leaves goes to Restate: the follow-up its coalesced sends drained
 * into, or the turn itself when this run did not finish it (it handed over, was superseded or
 * failed: the invocation resumes it from the journal). Answers whether the turn ended here (its
 * invocation, if one arrives, then has nothing left to do).
 */
export async function runEagerly(deps: WorkerDeps, hints: EagerRunHints, turn: TurnRequest): Promise<boolean> {
  const runtime = runtimeOf(deps);
  // One statement reads the session's setup and whether the epoch is still the start's (and no
  // stop was asked); nothing is recorded, nor any model called, before it is known to be.
  const start = readEagerTurnStart(deps.db, turn);
  // Its readers (the journal, the setup) each see a failure; it is never left unhandled.
  start.catch(() => undefined);
  const journal = turnJournal(deps.db, turn, [turn.turnId], { eagerStart: start, workerKey: deps.eager?.workerKey });
  const eagerJournal: TurnJournal = {
    ...journal,
    stopRequested: async () => {
      if (!(await journal.isCurrent())) throw new NotFirst();
      return journal.stopRequested();
    },
  };
  let next: TurnRequest | undefined;
  try {
    const durable: TurnDurable = { awakeable: handOver, resolveAwakeable: handOver, park: handOver };
    next = await runSessionTurn(deps, turn, eagerJournal, durable, {
      opensSession: true,
      mayHavePending: hints.mayHavePending,
      setupRow: start,
    });
  } catch (error) {
    if (error instanceof NotFirst) return false;
    if (!(error instanceof HandOver || error instanceof SupersededRun))
      processLogger().warn(
        { sessionId: turn.sessionId, turnId: turn.turnId, ...errorFields(error) },
        "eager run ended early; its invocation resumes it",
      );
    try {
      await sendRecordedTurn({ db: deps.db, runtime, sessionId: turn.sessionId, turnId: turn.turnId });
    } catch (sendError) {
      // Back to "named for nobody": the sweep sends it (this worker's lock would hold it off).
      await poolOf(deps.db).query(
        `UPDATE sessions SET "eagerWorker" = 0 WHERE id = $1 AND "runningTurnId" = $2 AND "eagerWorker" IS NOT NULL`,
        [turn.sessionId, turn.turnId],
      );
      processLogger().error(
        { sessionId: turn.sessionId, turnId: turn.turnId, ...errorFields(sendError) },
        "could not send the turn to the engine; the sweep for unsent turns will",
      );
    }
    return false;
  }
  // Sends coalesced during the turn drained into a follow-up: queued like any send (retried, and
  // recorded as failed if the engine stays unreachable).
  if (next)
    await queueTurn({ db: deps.db, runtime, turn: next, mode: "chat" }).catch((error: Error) =>
      processLogger().error(
        { sessionId: next.sessionId, turnId: next.turnId, err: error.message },
        "could not queue the turn",
      ),
    );
  return true;
}

/** One turn of the session; answers the turn this invocation runs next (a drained follow-up). */
async function runSessionTurn(
  deps: WorkerDeps,
  current: TurnRequest,
  journal: TurnJournal,
  durable: TurnDurable,
  options: Pick<TurnDeps, "opensSession" | "mayHavePending" | "setupRow"> = {},
): Promise<TurnRequest | undefined> {
  const { ctx } = durable;
  const tracked = deps.cancellations.track(current.turnId);
  // The step body now running: a cancellation waits for it to settle before recording
  // the end, so no delta lands after turn.failed.
  let inflight: Promise<unknown> = Promise.resolve();
  const step: Step = (name, action) =>
    journal.step(name, (seal) => {
      const running = action(seal);
      inflight = running.catch(() => undefined);
      return running;
    });
  const approvals = { timeoutMs: deps.approvalTimeoutMs ?? defaultApprovalTimeoutMs, park: durable.park };
  // One span per run that does work; every run of the turn shares its trace (docs/telemetry.md).
  const runStartedAt = Date.now();
  const trace = turnScope(deps.telemetry, current, runStartedAt);
  let runEnd: { outcome: string; error?: string } = { outcome: "completed" };
  try {
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
        trace,
        runStartedAt,
        ...options,
      },
      current,
    );
    if (!stopped) return next;
    runEnd = { outcome: "cancelled" };
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
  } catch (error) {
    runEnd = { outcome: runOutcomeOf(error), error: error instanceof Error ? error.message : String(error) };
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
    await inflight;
    // Appends steps did not wait for are written before the end (their failure changes nothing now).
    await journal.settled().catch(() => undefined);
    const end = isStopped ? ({ kind: "cancelled" } as const) : await failedEnd(deps, current, error);
    runEnd = end.kind === "failed" ? { outcome: "failed", error: end.message } : { outcome: end.kind };
    return endTurnEarly(deps, durable, current, end, epoch, runStartedAt);
  } finally {
    tracked.release();
    endRun(trace, runEnd);
  }
}

/** How a run that threw ended, for its span: handed to the invocation, taken over, or retried. */
function runOutcomeOf(error: unknown): string {
  if (error instanceof HandOver) return "handed_over";
  if (error instanceof SupersededRun || error instanceof NotFirst) return "superseded";
  return "retried";
}

/**
 * How a failed attempt ends (turn-failure.ts): a terminal failure ends the turn now; a retryable
 * one is thrown, so the engine runs the turn again after its backoff, until the bound's attempts
 * are used up and the turn ends with `retries_exhausted`. Attempts are counted in Postgres; one
 * that cannot count (the database is away) is simply retried.
 */
async function failedEnd(deps: WorkerDeps, turn: TurnRequest, error: unknown): Promise<TurnEnd> {
  let failure = classifyFailure(error);
  const label = `turn ${turn.turnId} of session ${turn.sessionId}`;
  if (failure.isRetryable) {
    const bound = (deps.retry ?? defaultRetryBound).attempts;
    const attempts = await countFailedAttempt(deps.db, turn).catch(() => {
      throw error;
    });
    // 0: the session is gone, and there is no end to record (endTurnEarly finds nothing).
    if (attempts > 0 && attempts < bound) {
      processLogger().warn(
        { sessionId: turn.sessionId, turnId: turn.turnId, code: failure.code },
        `${label}: attempt ${attempts} of ${bound} failed, retried after a backoff: ${failure.message}`,
      );
      void logForSession(
        deps,
        turn,
        "warn",
        `attempt ${attempts} of ${bound} failed (${failure.code}), retried after a backoff: ${failure.message}`,
      );
      throw error;
    }
    if (attempts >= bound) failure = exhausted(failure, attempts);
  }
  processLogger().error(
    { sessionId: turn.sessionId, turnId: turn.turnId, code: failure.code },
    `${label} failed: ${failure.message}`,
  );
  void logForSession(deps, turn, "error", `the turn failed (${failure.code}): ${failure.message}`);
  return { kind: "failed", message: failure.message, code: failure.code };
}

/**
 * Ends a turn that failed or was stopped outside its own finish step: its end recorded once, and
 * what waits on the session handed on — a follow-up its sends drained into (run next by this
 * invocation), sends coalesced while it was stopped (a new invocation: a cancelled one cannot
 * carry them), its maxRunningTurns slot.
 */
async function endTurnEarly(
  deps: WorkerDeps,
  durable: TurnDurable,
  turn: TurnRequest,
  end: TurnEnd,
  epoch: number,
  runStartedAt = Date.now(),
): Promise<TurnRequest | undefined> {
  const { ctx } = durable;
  const record = async (): Promise<{ next?: TurnRequest; leftover?: TurnRequest }> => {
    const session = await deps.db.session.findUnique({
      where: { id: turn.sessionId },
      select: { mode: true, agentId: true },
    });
    if (!session) return {};
    recordTurnEnd(deps.telemetry, {
      agentId: session.agentId,
      outcome: end.kind === "cancelled" ? "cancelled" : "failed",
      code: end.kind === "failed" ? end.code : undefined,
      startedAt: runStartedAt,
    });
    const dir = workspaceDir(deps.dataDir, session.agentId, turn.sessionId);
    const isStop = end.kind === "cancelled";
    const next = await finishTurn({
      db: deps.db,
      sessionId: turn.sessionId,
      turnId: turn.turnId,
      mode: session.mode,
      end,
      epoch,
      workspaceDir: isStop ? undefined : dir,
    });
    const leftover = isStop
      ? await startLeftoverTurn({ db: deps.db, sessionId: turn.sessionId, workspaceDir: dir })
      : undefined;
    return { next, leftover };
  };
  if (!ctx) {
    const { next, leftover } = await record();
    if (leftover) await queueTurn({ db: deps.db, runtime: runtimeOf(deps), turn: leftover, mode: "chat" });
    return next;
  }
  const { next, leftover } = await afterCancellation(() => ctx.run(`${turn.turnId}:ended`, record));
  await afterCancellation(() =>
    handOnSlot(
      {
        db: deps.db,
        step: (name, action) => ctx.run(name, () => action(() => undefined)),
        resolveAwakeable: durable.resolveAwakeable,
      },
      turn.sessionId,
      turn.turnId,
    ),
  );
  if (leftover) await afterCancellation(() => sendFollowUp(ctx, deps, leftover));
  return next;
}

/** Restate hands an invocation's cancellation to the first context operation it awaits, once: an
 * attempt that failed (or was stopped) before awaiting one meets it here, and tries again. */
async function afterCancellation<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof restate.CancelledError) return operation();
    throw error;
  }
}

/** Sends coalesced while a cancelled turn wound down, as one new turn (see startLeftoverTurn). */
async function leftoverTurn(
  deps: WorkerDeps,
  sessionId: string,
  seal?: Seal<TurnRequest | undefined>,
): Promise<TurnRequest | undefined> {
  const session = await deps.db.session.findUnique({ where: { id: sessionId }, select: { agentId: true } });
  return session
    ? startLeftoverTurn({
        db: deps.db,
        sessionId,
        workspaceDir: workspaceDir(deps.dataDir, session.agentId, sessionId),
        seal,
      })
    : undefined;
}

function runtimeOf(deps: WorkerDeps): DurableRuntime {
  if (!deps.runtime) throw new Error("the worker needs its DurableRuntime to queue a turn");
  return deps.runtime;
}

async function sendFollowUp(ctx: restate.ObjectContext, deps: WorkerDeps, turn: TurnRequest): Promise<void> {
  const invocationId = await ctx.objectSendClient(sessionDefinition, turn.sessionId).runTurn(turn).invocationId;
  await ctx.run(`${turn.turnId}:invocation`, () =>
    recordInvocation(deps.db, turn.sessionId, turn.turnId, invocationId),
  );
}
