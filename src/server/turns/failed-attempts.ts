// Counts a turn's failed attempts, so a retryable failure is retried a bounded number of times
// (turn-failure.ts, docs/turns.md "Failures"). The count lives with the turn's journal, under a
// name no step uses: it goes when the journal does, and a session's delete takes it along.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";

/** Adds one failed attempt of the turn and answers how many there have been; 0 when its session is gone. */
export async function countFailedAttempt(
  db: PrismaClient,
  turn: { sessionId: string; turnId: string },
): Promise<number> {
  const { rows } = await poolOf(db).query<{ result: string }>({
    name: "agentfold-count-failed-attempt",
    text: `INSERT INTO turn_steps ("turnId", name, "sessionId", result, at)
             SELECT $1, $2, id, '1', now() AT TIME ZONE 'UTC' FROM sessions WHERE id = $3
           ON CONFLICT ("turnId", name) DO UPDATE SET result = (turn_steps.result::int + 1)::text, at = excluded.at
           RETURNING result`,
    values: [turn.turnId, `${turn.turnId}:failed-attempts`, turn.sessionId],
  });
  return rows[0] ? Number(rows[0].result) : 0;
}
