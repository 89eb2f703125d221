// ctx.send / ctx.getSession / a handle's waitForCompletion, for agent code (docs/agent-folders.md,
// "Host API", "Channels"). Agent code acts as the principal its call runs for: it starts sessions
// in that name only, and finds only that principal's sessions of the same agent. A channel route
// sends on its own channel, where a conversation key (`continuationToken: "ticket:42"`) names one
// session: the first send with it starts the session, later ones follow up in it.
import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { Principal } from "@/agents/sdk/types";
import { isOwner } from "@/server/auth/principal";
import { poolOf } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import { AppError } from "@/server/errors";
import { parseInput } from "@/server/validation/parse-input";
import { hashContinuationToken } from "./continuation-token";
import { followUpSession } from "./follow-up-session";
import { startSession } from "./start-session";

const sendSchema = z.object({
  channelId: z.string().min(1),
  message: z.string().min(1, "give a message"),
  options: z
    .object({
      title: z.string().max(200).optional(),
      auth: z.object({ kind: z.string(), id: z.string() }).loose().optional(),
      deliveryId: z.string().min(1).max(200).optional(),
      workspaceFiles: z.record(z.string(), z.string()).optional(),
      continuationToken: z.string().optional(),
      admission: z.enum(["preempt", "coalesce"]).optional(),
      state: z.record(z.string(), z.json()).optional(),
    })
    .default({}),
});

export type AgentCaller = {
  agentId: string;
  slug: string;
  teamId: string;
  principal: Principal;
  /** The channel whose route runs, when one does. */
  channelId?: string;
};

/** Starts a session of the caller's agent on the built-in HTTP channel, in the caller's name.
 * `warning`: an option that did nothing, for the sandbox to print in the caller's log. */
export async function sendFromAgent(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  caller: AgentCaller;
  params: unknown;
  baseUrl?: string;
}): Promise<{ id: string; deliveryId: string; warning?: string }> {
  const { db, runtime, caller } = options;
  const { channelId, message, options: sent } = parseInput(sendSchema, options.params, "send");
  if (channelId !== "http" && channelId !== caller.channelId)
    throw new AppError(
      "invalid_input",
      `send: no channel "${channelId}" here; sessions start on "http" or this channel`,
    );
  if (sent.auth && !isOwner(sent.auth as Principal, { ownerKind: caller.principal.kind, ownerId: caller.principal.id }))
    throw new AppError("forbidden", "send: agent code starts sessions only as the principal it runs for");
  if (sent.state !== undefined && channelId === "http")
    throw new AppError("invalid_input", "send: `state` is a channel's; send on the route's channel");
  if (sent.continuationToken !== undefined) {
    if (channelId === "http")
      throw new AppError("invalid_input", "send: conversation keys belong to a channel; send on the route's channel");
    return sendByConversationKey({ ...options, channelId, message, sent, key: sent.continuationToken });
  }
  const agent = await db.agent.findUnique({
    where: { id: caller.agentId },
    select: { id: true, slug: true, teamId: true, activeVersionId: true },
  });
  if (!agent) throw new AppError("not_found", "send: the agent is gone");
  const started = await startSession({
    db,
    runtime,
    agent,
    principal: caller.principal,
    body: { message, title: sent.title, deliveryId: sent.deliveryId, workspaceFiles: sent.workspaceFiles },
    baseUrl: options.baseUrl ?? "",
    channelId,
    channelState: sent.state,
  });
  return {
    id: started.sessionId,
    deliveryId: started.deliveryId,
    ...(sent.admission ? { warning: admissionIgnored(sent.admission) } : {}),
  };
}

/** Admission applies to a follow-up into a busy session; a send without a key never makes one. */
function admissionIgnored(admission: string): string {
  return (
    `send: admission "${admission}" did nothing: a send without a continuationToken always starts a new session, ` +
    "which has no running turn to preempt or coalesce into; to follow up in a conversation, send with its " +
    'continuationToken on the route\'s channel (docs/compatibility.md, "send() options")'
  );
}

type Sent = z.infer<typeof sendSchema>["options"];

function sendByConversationKey(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  caller: AgentCaller;
  channelId: string;
  message: string;
  sent: Sent;
  key: string;
}): Promise<{ id: string; deliveryId: string }> {
  const { caller, sent } = options;
  return sendOnConversation({
    ...options,
    agentId: caller.agentId,
    principal: caller.principal,
    title: sent.title,
    deliveryId: sent.deliveryId,
    workspaceFiles: sent.workspaceFiles,
    admission: sent.admission,
    state: sent.state,
  });
}

/** Starts the session a channel's conversation key names, or follows up in it: one session per
 * key, sends with the same key serialized by an advisory lock on it. Also the platform's own
 * channels' way in (the Slack and GitHub packs, src/server/agent-channels/packs.ts). */
export async function sendOnConversation(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agentId: string;
  channelId: string;
  key: string;
  /** Who sends: a new session's owner; a follow-up must be sent by the owner too. */
  principal: Principal;
  message: string;
  title?: string;
  deliveryId?: string;
  workspaceFiles?: Record<string, string>;
  admission?: "preempt" | "coalesce";
  /** A new session's initial channel state; a follow-up keeps the state its handlers left. */
  state?: Record<string, unknown>;
  /** A follow-up is sent as the session's owner (a Slack thread's later voices act in the name of
   * whoever started it), not as `principal`. */
  isFollowUpAsOwner?: boolean;
}): Promise<{ id: string; deliveryId: string; isNew: boolean }> {
  const { db, runtime, agentId, channelId, key, principal, message } = options;
  if (key.length === 0 || key.length > 500)
    throw new AppError("invalid_input", "send: a conversation key is 1 to 500 characters");
  const keyHash = hashContinuationToken(key);
  const client = await poolOf(db).connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [`${agentId}:${channelId}:${keyHash}`]);
    const { rows } = await client.query<{ sessionId: string }>(
      `SELECT "sessionId" FROM channel_conversations WHERE "agentId" = $1 AND "channelId" = $2 AND "keyHash" = $3`,
      [agentId, channelId, keyHash],
    );
    const known = rows[0]?.sessionId;
    if (known) {
      const owner = options.isFollowUpAsOwner
        ? await db.session.findUnique({ where: { id: known }, select: { ownerKind: true, ownerId: true } })
        : null;
      const followed = await followUpSession({
        db,
        runtime,
        agentId,
        sessionId: known,
        principal: owner ? { kind: owner.ownerKind as Principal["kind"], id: owner.ownerId } : principal,
        body: {
          message,
          continuationToken: "",
          admission: options.admission ?? "preempt",
          ...(options.deliveryId ? { deliveryId: options.deliveryId } : {}),
          ...(options.workspaceFiles ? { workspaceFiles: options.workspaceFiles } : {}),
        },
        isByConversationKey: true,
      });
      return { id: known, deliveryId: followed.deliveryId, isNew: false };
    }
    const agent = await db.agent.findUniqueOrThrow({
      where: { id: agentId },
      select: { id: true, slug: true, teamId: true, activeVersionId: true },
    });
    const started = await startSession({
      db,
      runtime,
      agent,
      principal,
      body: {
        message,
        title: options.title,
        deliveryId: options.deliveryId,
        workspaceFiles: options.workspaceFiles,
      },
      baseUrl: "",
      channelId,
      channelState: options.state as Sent["state"],
    });
    await client.query(
      `INSERT INTO channel_conversations ("agentId", "channelId", "keyHash", "sessionId") VALUES ($1, $2, $3, $4)`,
      [agentId, channelId, keyHash, started.sessionId],
    );
    return { id: started.sessionId, deliveryId: started.deliveryId, isNew: true };
  } finally {
    await client.query("SELECT pg_advisory_unlock_all()").catch(() => undefined);
    client.release();
  }
}

/** The session a channel's conversation key names, if any. */
export async function findConversation(
  db: PrismaClient,
  where: { agentId: string; channelId: string; key: string },
): Promise<string | undefined> {
  const { rows } = await poolOf(db).query<{ sessionId: string }>({
    name: "agentfold-find-conversation",
    text: `SELECT "sessionId" FROM channel_conversations WHERE "agentId" = $1 AND "channelId" = $2 AND "keyHash" = $3`,
    values: [where.agentId, where.channelId, hashContinuationToken(where.key)],
  });
  return rows[0]?.sessionId;
}

const getSchema = z.object({ channelId: z.string(), sessionId: z.string() });

/** A session of the caller's agent and principal on `channelId`, or null. */
export async function getSessionForAgent(db: PrismaClient, caller: AgentCaller, params: unknown) {
  const { channelId, sessionId } = parseInput(getSchema, params, "getSession");
  const session = await db.session.findFirst({
    where: {
      id: sessionId,
      agentId: caller.agentId,
      channelId,
      ownerKind: caller.principal.kind,
      ownerId: caller.principal.id,
    },
    select: { id: true, channelId: true, mode: true, title: true },
  });
  if (!session) return null;
  // Follow-up tokens are stored hashed and rotate on use: agent code continues with send().
  return { ...session, title: session.title ?? undefined, continuationToken: null };
}

const waitSchema = z.object({ sessionId: z.string(), deliveryId: z.string() });

export type SessionCompletion = {
  status: "finished" | "failed" | "cancelled";
  result?: unknown;
  errorMessage?: string;
};

/** Waits for the turn that took a send's message (its own, or the running one it was steered into)
 * to end; polls the log, backing off to 1 s. */
export async function waitForTurn(options: {
  db: PrismaClient;
  caller: AgentCaller;
  params: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<SessionCompletion> {
  const { db, caller, timeoutMs = 15 * 60_000, signal } = options;
  const { sessionId, deliveryId } = parseInput(waitSchema, options.params, "waitForCompletion");
  const deadline = Date.now() + timeoutMs;
  for (let delayMs = 50; ; delayMs = Math.min(delayMs * 2, 1000)) {
    const { rows } = await poolOf(db).query<{ type: string; data: Record<string, unknown>; reply: string | null }>({
      name: "agentfold-wait-for-turn",
      text: `WITH took AS (
               SELECT d."turnId" FROM session_events d JOIN sessions s ON s.id = d."sessionId" AND s."agentId" = $3
               WHERE d."sessionId" = $1 AND ((d.type = 'message.received' AND d.data->'deliveryIds' ? $2)
                 OR (d.type = 'nudge.delivered' AND d.data->>'deliveryId' = $2))
               ORDER BY d.index LIMIT 1)
             SELECT e.type, e.data, (SELECT m.data->>'text' FROM session_events m WHERE m."sessionId" = $1
                 AND m."turnId" = took."turnId" AND m.type = 'message.completed' ORDER BY m.index DESC LIMIT 1) AS reply
             FROM took JOIN session_events e ON e."sessionId" = $1 AND e."turnId" = took."turnId"
             WHERE e.type IN ('turn.completed', 'turn.failed') LIMIT 1`,
      values: [sessionId, deliveryId, caller.agentId],
    });
    const end = rows[0];
    if (end?.type === "turn.completed")
      return { status: "finished", result: end.data.result ?? end.reply ?? undefined };
    if (end) {
      const status = end.data.status === "cancelled" ? "cancelled" : "failed";
      return { status, errorMessage: String(end.data.message ?? "the turn failed") };
    }
    if (signal?.aborted || Date.now() + delayMs > deadline)
      throw new AppError("unavailable", `waitForCompletion: session ${sessionId} is still running`);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}
