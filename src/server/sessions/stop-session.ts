// POST /<slug>/v1/session/:id/stop: cancels the running turn without sending a message. The
// worker records `turn.failed` (status "cancelled") when the cancellation reaches it.
import type { PrismaClient } from "@prisma/client";
import type { Principal } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { getOwnedSession } from "./get-owned-session";

export async function stopSession(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agentId: string;
  sessionId: string;
  principal: Principal;
}): Promise<{ ok: true; sessionId: string; wasRunning: boolean }> {
  const { db, runtime, agentId, sessionId, principal } = options;
  const session = await getOwnedSession({ db, agentId, sessionId, principal });
  const wasRunning = session.status === "running" && session.runningInvocationId !== null;
  if (wasRunning) await runtime.cancel(session.runningInvocationId!);
  return { ok: true, sessionId, wasRunning };
}
