// DELETE /<slug>/v1/session/:id: the session and its log are gone; later requests answer 404.
import type { PrismaClient } from "@prisma/client";
import type { Principal } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { getOwnedSession } from "./get-owned-session";

export async function deleteSession(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agentId: string;
  sessionId: string;
  principal: Principal;
}): Promise<{ ok: true; sessionId: string }> {
  const { db, runtime, agentId, sessionId, principal } = options;
  const session = await getOwnedSession({ db, agentId, sessionId, principal });
  if (session.status === "running" && session.runningInvocationId) await runtime.cancel(session.runningInvocationId);
  await db.session.delete({ where: { id: sessionId } });
  return { ok: true, sessionId };
}
