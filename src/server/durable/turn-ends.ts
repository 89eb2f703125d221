// How a session's turn ends outside its own finish step (session-turn.ts): a failed attempt
// retried or ended (failedEnd), the end recorded once and what waits on the session handed on
// (endTurnEarly), and the sends coalesced while a stopped turn wound down (leftoverTurn).
import * as restate from "@restatedev/restate-sdk";
import { workspaceDir } from "@/server/agents/storage";
import { logForSession } from "@/server/logging/log-for-session";
import { processLogger } from "@/server/logging/logger";
import { queueTurn } from "@/server/sessions/queue-turn";
import { recordInvocation } from "@/server/sessions/record-invocation";
import { recordTurnEnd } from "@/server/telemetry/turn-telemetry";
import type { Seal, TurnEnd } from "@/server/turns/engine";
import { countFailedAttempt } from "@/server/turns/failed-attempts";
import { finishTurn, startLeftoverTurn } from "@/server/turns/finish-turn";
import { handOnSlot } from "@/server/turns/run-turn";
import { classifyFailure, exhausted } from "@/server/turns/turn-failure";
import { defaultRetryBound } from "./retry-bound";
import type { TurnRequest } from "./runtime";
import { sessionDefinition } from "./session-definition";
import { runtimeOf, type TurnDurable } from "./turn-durable";
import type { WorkerDeps } from "./worker-deps";

/**
 * How a failed attempt ends (turn-failure.ts): a terminal failure ends the turn now; a retryable
 * one is thrown, so the engine runs the turn again after its backoff, until the bound's attempts
 * are used up and the turn ends with `retries_exhausted`. Attempts are counted in Postgres; one
 * that cannot count (the database is away) is simply retried.
 */
export async function failedEnd(deps: WorkerDeps, turn: TurnRequest, error: unknown): Promise<TurnEnd> {
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
export async function endTurnEarly(
  deps: WorkerDeps,
  durable: TurnDurable,
  turn: TurnRequest,
  end: TurnEnd,
  epoch: number,
  runStartedAt = Date.now(),
): Promise<TurnRequest | undefined> {
  const { ctx } = durable;
  const record = () => recordEarlyEnd(deps, turn, end, epoch, runStartedAt);
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

/** endTurnEarly's record: the end (and its metric), the follow-up the turn's sends drained into,
 * and for a stop the sends coalesced meanwhile as a new turn. Nothing for a session that is gone. */
async function recordEarlyEnd(
  deps: WorkerDeps,
  turn: TurnRequest,
  end: TurnEnd,
  epoch: number,
  runStartedAt: number,
): Promise<{ next?: TurnRequest; leftover?: TurnRequest }> {
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
export async function leftoverTurn(
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

async function sendFollowUp(ctx: restate.ObjectContext, deps: WorkerDeps, turn: TurnRequest): Promise<void> {
  const invocationId = await ctx.objectSendClient(sessionDefinition, turn.sessionId).runTurn(turn).invocationId;
  await ctx.run(`${turn.turnId}:invocation`, () =>
    recordInvocation(deps.db, turn.sessionId, turn.turnId, invocationId),
  );
}
