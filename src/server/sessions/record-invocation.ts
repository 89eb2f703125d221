// Remembers the Restate invocation running a session's current turn, so stop and preempt can
// cancel it; a no-op when a newer send already took the session over.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";

export async function recordInvocation(
  db: PrismaClient,
  sessionId: string,
  turnId: string,
  invocationId: string,
): Promise<void> {
  await poolOf(db).query({
    name: "agentfold-record-invocation",
    text: `UPDATE sessions SET "runningInvocationId" = $3 WHERE id = $1 AND "runningTurnId" = $2`,
    values: [sessionId, turnId, invocationId],
  });
}
