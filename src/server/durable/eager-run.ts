// The eager run of a new session's first turn: from its commit, with no invocation
// (src/server/worker/eager-turns.ts), through the same run as the session's object
// (session-turn.ts); what it leaves goes to Restate.
import { poolOf } from "@/server/db";
import { errorFields, processLogger } from "@/server/logging/logger";
import { queueTurn, sendRecordedTurn } from "@/server/sessions/queue-turn";
import { SupersededRun, turnJournal, type TurnJournal } from "@/server/turns/step-journal";
import { readEagerTurnStart } from "@/server/turns/turn-setup";
import type { EagerRunHints } from "@/server/worker/eager-turns";
import type { DurableRuntime, TurnRequest } from "./runtime";
import { runSessionTurn } from "./session-turn";
import { HandOver, NotFirst, runtimeOf, type TurnDurable } from "./turn-durable";
import type { WorkerDeps } from "./worker-deps";

const handOver = (): never => {
  throw new HandOver("the turn waits on the engine: its invocation takes it over");
};

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
    await sendToInvocation(deps, runtime, turn);
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

/** Sends a turn an eager run did not finish to its invocation, or leaves it to the sweep. */
async function sendToInvocation(deps: WorkerDeps, runtime: DurableRuntime, turn: TurnRequest): Promise<void> {
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
}
