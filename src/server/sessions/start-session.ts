// POST /<slug>/v1/session: the session row, `session.started` and `message.received` are
// written in one transaction; then the first turn is queued on the session's durable object.
import type { PrismaClient } from "@prisma/client";
import { ownerOf, type Principal } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { appendEventsInTransaction } from "@/server/events/append-events";
import { AppError } from "@/server/http/app-error";
import { assertWorkspacePaths } from "./assert-workspace-paths";
import { newContinuationToken } from "./continuation-token";
import type { StartSessionBody, SessionStarted } from "./schema";
import { newDeliveryId, newSessionId, newTurnId, sessionUrls } from "./session-urls";

export type AgentRef = { id: string; slug: string; teamId: string; activeVersionId: string | null };

export async function startSession(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agent: AgentRef;
  principal: Principal;
  body: StartSessionBody;
  baseUrl: string;
  channelId?: string;
  mode?: "chat" | "task";
}): Promise<SessionStarted> {
  const { db, runtime, agent, principal, body, baseUrl, channelId = "http", mode = "chat" } = options;
  if (!agent.activeVersionId) throw new AppError("conflict", `agent '${agent.slug}' has no active version; upload one first`);
  assertWorkspacePaths(body.workspaceFiles);
  const sessionId = newSessionId();
  const turnId = newTurnId();
  const continuation = newContinuationToken();
  const deliveryId = body.deliveryId ?? newDeliveryId();
  await db.$transaction(async (tx) => {
    await tx.session.create({
      data: {
        id: sessionId,
        agentId: agent.id,
        agentVersionId: agent.activeVersionId!,
        ...ownerOf(principal),
        channelId,
        mode,
        title: body.title,
        dryRun: body.dryRun ?? false,
        continuationTokenHash: mode === "chat" ? continuation.hash : null,
        status: "running",
        runningTurnId: turnId,
      },
    });
    await appendEventsInTransaction({
      tx,
      sessionId,
      events: [
        { type: "session.started", data: { channelId, mode, purpose: "live", ...(body.title ? { title: body.title } : {}), ...(body.dryRun ? { dryRun: true } : {}) } },
        { type: "message.received", turnId, data: { text: body.message, deliveryIds: [deliveryId] } },
      ],
    });
  });
  const { invocationId } = await runtime.sendTurn({ sessionId, turnId, message: body.message, workspaceFiles: body.workspaceFiles });
  await db.session.updateMany({ where: { id: sessionId, runningTurnId: turnId }, data: { runningInvocationId: invocationId } });
  return { ok: true, sessionId, continuationToken: continuation.token, deliveryId, ...sessionUrls(baseUrl, agent.slug, sessionId) };
}
