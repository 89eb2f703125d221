// POST /<slug>/v1/session/:id: a follow-up. The continuation token must be the latest one; it is
// rotated in the same transaction that records the message, so two clients racing with the same
// token cannot both get in.
import type { PrismaClient } from "@prisma/client";
import type { Principal } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { appendEventsInTransaction } from "@/server/events/append-events";
import { AppError } from "@/server/http/app-error";
import { assertWorkspacePaths } from "./assert-workspace-paths";
import { hashContinuationToken, newContinuationToken } from "./continuation-token";
import { getOwnedSession } from "./get-owned-session";
import type { FollowUpBody } from "./schema";
import { newTurnId } from "./session-urls";

export async function followUpSession(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agentId: string;
  sessionId: string;
  principal: Principal;
  body: FollowUpBody;
}): Promise<{ ok: true; sessionId: string; continuationToken: string; deliveryId?: string }> {
  const { db, runtime, agentId, sessionId, principal, body } = options;
  const session = await getOwnedSession({ db, agentId, sessionId, principal });
  if (session.mode === "task") throw new AppError("task_session", "task sessions do not take follow-ups");
  assertWorkspacePaths(body.workspaceFiles);
  const turnId = newTurnId();
  const next = newContinuationToken();
  await db.$transaction(async (tx) => {
    const rotated = await tx.session.updateMany({
      where: { id: sessionId, continuationTokenHash: hashContinuationToken(body.continuationToken) },
      data: { continuationTokenHash: next.hash, status: "running" },
    });
    if (rotated.count === 0) throw new AppError("stale_continuation_token", "this continuation token was already used; use the latest one");
    await appendEventsInTransaction({
      tx,
      sessionId,
      events: [{ type: "message.received", turnId, data: { text: body.message, ...(body.deliveryId ? { deliveryIds: [body.deliveryId] } : {}) } }],
    });
  });
  const { invocationId } = await runtime.sendTurn({ sessionId, turnId, message: body.message, workspaceFiles: body.workspaceFiles });
  await db.session.update({ where: { id: sessionId }, data: { runningInvocationId: invocationId } });
  return { ok: true, sessionId, continuationToken: next.token, ...(body.deliveryId ? { deliveryId: body.deliveryId } : {}) };
}
