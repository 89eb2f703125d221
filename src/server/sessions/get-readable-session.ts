// Loads a session for a caller who only reads it (its summary, log and stream). Its owner may;
// so may, for a task session (a schedule's run, `mode: "task"`), whoever may read the agent's task
// sessions: the team's admins and owners, and tokens with sessions:read for the agent that an
// admin or owner made (docs/dashboard.md, "Task sessions"). Every route that changes a session
// stays with its owner (get-owned-session.ts).
import type { PrismaClient } from "@prisma/client";
import { isOwner, type Caller } from "@/server/auth/principal";
import { AppError } from "@/server/errors";
import { findSession, type OwnedSession } from "./get-owned-session";

type AgentOf = { slug: string; teamId: string };

export async function getReadableSession(options: {
  db: PrismaClient;
  agent: AgentOf & { id: string };
  sessionId: string;
  caller: Caller;
}): Promise<OwnedSession> {
  const { db, agent, sessionId, caller } = options;
  return readableOrThrow({ session: await findSession(db, agent.id, sessionId), caller, agent, sessionId });
}

/** The session if `caller` may read it: 404 when there is none (on this agent), else 403. */
export async function readableOrThrow<S extends { ownerKind: string; ownerId: string; mode: string }>(options: {
  session: S | undefined;
  caller: Caller;
  agent: AgentOf;
  sessionId: string;
}): Promise<S> {
  const { session, caller, agent, sessionId } = options;
  if (!session) throw new AppError("not_found", `no session ${sessionId}`);
  if (isOwner(caller.principal, session)) return session;
  if (session.mode === "task" && (await caller.canReadTaskSessions?.(agent.slug, agent.teamId))) return session;
  throw new AppError("forbidden", "this session belongs to someone else");
}
