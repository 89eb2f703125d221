// POST /<slug>/v1/session: the session row, `session.started` and `message.received` are
// written in one transaction (plain SQL: this is every turn's hot path); then the first turn is
// queued on the session's durable object.
import type { PrismaClient } from "@prisma/client";
import type pg from "pg";
import { ownerOf, type Principal } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { pgTransaction } from "@/server/db";
import { appendEventsInTransaction } from "@/server/events/append-events";
import { AppError } from "@/server/http/app-error";
import { assertWorkspacePaths } from "./assert-workspace-paths";
import { newContinuationToken } from "./continuation-token";
import type { StartSessionBody, SessionStarted } from "./schema";
import { queueTurn } from "./queue-turn";
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
  await pgTransaction(db, (client) =>
    recordSessionStart(client, {
      sessionId, turnId, agentId: agent.id, versionId: agent.activeVersionId!, principal, channelId, mode,
      title: body.title, dryRun: body.dryRun, continuationHash: mode === "chat" ? continuation.hash : null, message: body.message, deliveryId,
    }),
  );
  await queueTurn({ db, runtime, turn: { sessionId, turnId, message: body.message, workspaceFiles: body.workspaceFiles }, mode });
  return { ok: true, sessionId, continuationToken: continuation.token, deliveryId, ...sessionUrls(baseUrl, agent.slug, sessionId) };
}

/** The session row, `session.started` and the first `message.received`, in the caller's transaction. */
export async function recordSessionStart(
  client: pg.PoolClient,
  start: {
    sessionId: string;
    turnId: string;
    agentId: string;
    versionId: string;
    principal: Principal;
    channelId: string;
    mode: "chat" | "task";
    title?: string;
    dryRun?: boolean;
    continuationHash: string | null;
    message: string;
    deliveryId: string;
  },
): Promise<void> {
  const owner = ownerOf(start.principal);
  await client.query(
    `INSERT INTO sessions (id, "agentId", "agentVersionId", "ownerKind", "ownerId", "channelId", mode, title, "dryRun",
       "continuationTokenHash", status, "runningTurnId", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7::"SessionMode", $8, $9, $10, 'running', $11, now() AT TIME ZONE 'UTC')`,
    [start.sessionId, start.agentId, start.versionId, owner.ownerKind, owner.ownerId, start.channelId, start.mode, start.title ?? null, start.dryRun ?? false,
      start.continuationHash, start.turnId],
  );
  const { channelId, mode, title, dryRun } = start;
  await appendEventsInTransaction({
    client,
    sessionId: start.sessionId,
    events: [
      { type: "session.started", data: { channelId, mode, purpose: "live", ...(title ? { title } : {}), ...(dryRun ? { dryRun: true } : {}) } },
      { type: "message.received", turnId: start.turnId, data: { text: start.message, deliveryIds: [start.deliveryId] } },
    ],
  });
}
