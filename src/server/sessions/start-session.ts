// POST /<slug>/v1/session: the session row, `session.started` and `message.received` are
// written in one statement (./record-session-start.ts: this is every turn's hot path), which also
// announces the first turn to the workers: one runs it at once (src/server/worker/eager-turns.ts).
// A turn that cannot be announced (workspace files, a very long message) is queued on the
// session's durable object instead.
import type { PrismaClient } from "@prisma/client";
import type { Principal } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { pgTransaction, poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import { assertWorkspacePaths } from "./assert-workspace-paths";
import { newContinuationToken } from "./continuation-token";
import type { StartSessionBody, SessionStarted } from "./schema";
import { queueTurn } from "./queue-turn";
import { recordSessionStart } from "./record-session-start";
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
  /** A channel's initial state for the session, committed with it (before any event reaches the
   * channel's handlers). */
  channelState?: unknown;
  /** The session a peer agent's ask came from (src/server/mcp/peer-agents.ts), committed with it. */
  askedFrom?: { sessionId: string; agentId: string };
  /** "eval" for the sessions an eval's `t.send` starts. */
  purpose?: "live" | "eval";
}): Promise<SessionStarted> {
  const { db, runtime, agent, principal, body, baseUrl, channelId = "http", mode = "chat" } = options;
  const { channelState, askedFrom } = options;
  if (!agent.activeVersionId)
    throw new AppError("conflict", `agent '${agent.slug}' has no active version; upload one first`);
  assertWorkspacePaths(body.workspaceFiles);
  const sessionId = newSessionId();
  const turnId = newTurnId();
  const continuation = newContinuationToken();
  const deliveryId = body.deliveryId ?? newDeliveryId();
  const start = {
    sessionId,
    turnId,
    agentId: agent.id,
    versionId: agent.activeVersionId,
    principal,
    channelId,
    mode,
    ...(options.purpose ? { purpose: options.purpose } : {}),
    title: body.title,
    dryRun: body.dryRun,
    continuationHash: mode === "chat" ? continuation.hash : null,
    message: body.message,
    deliveryId,
    workspaceFiles: body.workspaceFiles,
    announce: true,
  };
  const { announced } =
    channelState === undefined && askedFrom === undefined
      ? await recordSessionStart(poolOf(db), start)
      : await pgTransaction(db, async (client) => {
          const recorded = await recordSessionStart(client, start);
          if (channelState !== undefined)
            await client.query(
              `INSERT INTO channel_states ("sessionId", state, "updatedAt") VALUES ($1, $2::jsonb, now() AT TIME ZONE 'UTC')`,
              [sessionId, JSON.stringify(channelState)],
            );
          if (askedFrom)
            await client.query(
              `INSERT INTO session_peer_asks ("sessionId", "fromSessionId", "fromAgentId") VALUES ($1, $2, $3)`,
              [sessionId, askedFrom.sessionId, askedFrom.agentId],
            );
          return recorded;
        });
  // An announced turn starts in a worker at once, and goes to the engine only if it has to.
  if (!announced)
    await queueTurn({
      db,
      runtime,
      turn: { sessionId, turnId, message: body.message, workspaceFiles: body.workspaceFiles },
      mode,
    });
  return {
    ok: true,
    sessionId,
    continuationToken: continuation.token,
    deliveryId,
    ...sessionUrls(baseUrl, agent.slug, sessionId),
  };
}

// Schedules and host calls record a start inside their own transactions.
export { recordSessionStart };
