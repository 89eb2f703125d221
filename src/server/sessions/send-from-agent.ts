// ctx.send / ctx.getSession / a handle's waitForCompletion, for agent code (docs/agent-folders.md,
// "Host API"). Agent code acts as the principal its call runs for: it starts sessions in that
// name only, and finds only that principal's sessions of the same agent.
import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { Principal } from "@/agents/sdk/types";
import { isOwner } from "@/server/auth/principal";
import { poolOf } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import { AppError } from "@/server/errors";
import { parseInput } from "@/server/validation/parse-input";
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
      state: z.unknown().optional(),
    })
    .default({}),
});

export type AgentCaller = { agentId: string; slug: string; teamId: string; principal: Principal };

/** Starts a session of the caller's agent on the built-in HTTP channel, in the caller's name. */
export async function sendFromAgent(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  caller: AgentCaller;
  params: unknown;
  baseUrl?: string;
}): Promise<{ id: string; deliveryId: string; turnId: string }> {
  const { db, runtime, caller } = options;
  const { channelId, message, options: sent } = parseInput(sendSchema, options.params, "send");
  if (channelId !== "http")
    throw new AppError("invalid_input", `send: no channel "${channelId}" here; sessions start on "http"`);
  if (sent.auth && !isOwner(sent.auth as Principal, { ownerKind: caller.principal.kind, ownerId: caller.principal.id }))
    throw new AppError("forbidden", "send: agent code starts sessions only as the principal it runs for");
  if (sent.continuationToken !== undefined || sent.state !== undefined)
    throw new AppError("invalid_input", "send: continuationToken and state belong to channels; sessions start fresh");
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
  });
  const { rows } = await poolOf(db).query<{ runningTurnId: string }>(
    `SELECT "runningTurnId" FROM sessions WHERE id = $1`,
    [started.sessionId],
  );
  return { id: started.sessionId, deliveryId: started.deliveryId, turnId: rows[0]!.runningTurnId };
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

const waitSchema = z.object({ sessionId: z.string(), turnId: z.string() });

export type SessionCompletion = {
  status: "finished" | "failed" | "cancelled";
  result?: unknown;
  errorMessage?: string;
};

/** Waits for the turn a send started to end; polls the log, backing off to 1 s. */
export async function waitForTurn(options: {
  db: PrismaClient;
  caller: AgentCaller;
  params: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<SessionCompletion> {
  const { db, caller, timeoutMs = 15 * 60_000, signal } = options;
  const { sessionId, turnId } = parseInput(waitSchema, options.params, "waitForCompletion");
  const deadline = Date.now() + timeoutMs;
  for (let delayMs = 50; ; delayMs = Math.min(delayMs * 2, 1000)) {
    const { rows } = await poolOf(db).query<{ type: string; data: Record<string, unknown>; reply: string | null }>({
      name: "agentfold-wait-for-turn",
      text: `SELECT e.type, e.data, (SELECT m.data->>'text' FROM session_events m WHERE m."sessionId" = $1 AND m."turnId" = $2
                 AND m.type = 'message.completed' ORDER BY m.index DESC LIMIT 1) AS reply
             FROM session_events e JOIN sessions s ON s.id = e."sessionId" AND s."agentId" = $3
             WHERE e."sessionId" = $1 AND e."turnId" = $2 AND e.type IN ('turn.completed', 'turn.failed') LIMIT 1`,
      values: [sessionId, turnId, caller.agentId],
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
