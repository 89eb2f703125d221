// POST /<slug>/v1/session/:id/stop: interrupts the running turn without a new message and drops
// sends still waiting to be coalesced into it. The worker records `turn.failed` (status
// "cancelled") and the session waits for the next message.
import type { PrismaClient } from "@prisma/client";
import type { Principal } from "@/server/auth/principal";
import { pgTransaction } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import { interruptTurn } from "@/server/turns/interrupt-turn";
import { getOwnedSession } from "./get-owned-session";

export async function stopSession(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agentId: string;
  sessionId: string;
  principal: Principal;
}): Promise<{ ok: true; sessionId: string; wasRunning: boolean }> {
  const { db, runtime, agentId, sessionId, principal } = options;
  await getOwnedSession({ db, agentId, sessionId, principal });
  return { ok: true, sessionId, wasRunning: await interruptSession(db, runtime, sessionId) };
}

/** Stops whatever the session runs and drops what waits to be coalesced into it; answers whether
 * a turn was running. The caller has checked who may (an owner; a Slack thread's `stop`). */
export async function interruptSession(db: PrismaClient, runtime: DurableRuntime, sessionId: string): Promise<boolean> {
  const { running } = await pgTransaction(db, async (client) => {
    const { rows } = await client.query<{ runningTurnId: string | null; runningInvocationId: string | null }>(
      `SELECT "runningTurnId", "runningInvocationId" FROM sessions WHERE id = $1 FOR UPDATE`,
      [sessionId],
    );
    await client.query(`DELETE FROM pending_deliveries WHERE "sessionId" = $1`, [sessionId]);
    return { running: rows[0]?.runningTurnId ? rows[0] : undefined };
  });
  if (running)
    await interruptTurn({
      db,
      runtime,
      sessionId,
      turnId: running.runningTurnId!,
      invocationId: running.runningInvocationId,
    });
  return running !== undefined;
}
