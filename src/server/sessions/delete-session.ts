// DELETE /<slug>/v1/session/:id: the session and its log are gone; later requests answer 404.
import type { PrismaClient } from "@prisma/client";
import type { Principal } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { interruptTurn } from "@/server/turns/interrupt-turn";
import { getOwnedSession } from "./get-owned-session";

export async function deleteSession(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agentId: string;
  sessionId: string;
  principal: Principal;
}): Promise<{ ok: true; sessionId: string }> {
  const { db, runtime, agentId, sessionId, principal } = options;
  await getOwnedSession({ db, agentId, sessionId, principal });
  const running = await db.session.findUnique({
    where: { id: sessionId },
    select: { runningTurnId: true, runningInvocationId: true },
  });
  if (running?.runningTurnId)
    await interruptTurn({
      db,
      runtime,
      sessionId,
      turnId: running.runningTurnId,
      invocationId: running.runningInvocationId,
    });
  await db.session.delete({ where: { id: sessionId } });
  return { ok: true, sessionId };
}
