// Hands a recorded turn to the durable engine and remembers its invocation. The send is retried
// (the turn id is its idempotency key, so a retry cannot queue it twice); if the engine stays
// unreachable the turn is recorded as failed, so the session does not stay "running" forever
// with a turn nobody runs, and the caller gets 503.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import type { DurableRuntime, TurnRequest } from "@/server/durable/runtime";
import { AppError } from "@/server/errors";
import { finishTurn } from "@/server/turns/finish-turn";
import { recordInvocation } from "./record-invocation";

const retryDelaysMs = [200, 800];

/** Runs `attempt`, then again after 200 and 800 ms while it throws; the last error is thrown. */
export async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= retryDelaysMs.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelaysMs[i]));
    }
  }
}

export async function queueTurn(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  turn: TurnRequest;
  mode: "chat" | "task";
}): Promise<void> {
  const { db, runtime, turn, mode } = options;
  try {
    await withRetries(async () => {
      const { invocationId } = await runtime.sendTurn(turn);
      await recordInvocation(db, turn.sessionId, turn.turnId, invocationId);
    });
  } catch (error) {
    await failUnqueuedTurn({ db, sessionId: turn.sessionId, turnId: turn.turnId, mode }, error);
  }
}

/** A recorded turn the engine would not take: recorded as failed, and the caller gets 503. */
export async function failUnqueuedTurn(
  turn: { db: PrismaClient; sessionId: string; turnId: string; mode: "chat" | "task" },
  error: unknown,
): Promise<never> {
  const reason = error instanceof Error ? error.message : String(error);
  await finishTurn({
    db: turn.db,
    sessionId: turn.sessionId,
    turnId: turn.turnId,
    mode: turn.mode,
    end: { kind: "failed", message: `the turn could not be queued: ${reason}`, code: "engine_unavailable" },
  });
  throw new AppError(
    "unavailable",
    "the durable engine is not reachable; the message was recorded and its turn failed, try again shortly",
  );
}

/**
 * Sends a recorded turn to the engine again, its message read from the log: a turn that runs
 * without an invocation (a new session's first turn runs eagerly: src/server/worker/eager-turns.ts)
 * gets one, and a turn that has one gets the same back (a send is idempotent per turn). The
 * invocation is remembered while the session still runs the turn. Answers its id; undefined when
 * the log has no such turn.
 */
export async function sendRecordedTurn(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  sessionId: string;
  turnId: string;
}): Promise<string | undefined> {
  const { db, runtime, sessionId, turnId } = options;
  const { rows } = await poolOf(db).query<{ text: string | null }>({
    name: "agentfold-recorded-turn-message",
    text: `SELECT data->>'text' AS text FROM session_events WHERE "sessionId" = $1 AND "turnId" = $2 AND type = 'message.received' ORDER BY index LIMIT 1`,
    values: [sessionId, turnId],
  });
  if (rows.length === 0) return undefined;
  const { invocationId } = await runtime.sendTurn({ sessionId, turnId, message: rows[0]!.text ?? "" });
  await recordInvocation(db, sessionId, turnId, invocationId);
  return invocationId;
}
