// Loads a session of an agent for its owner: 404 when there is no such session on this agent,
// 403 when it belongs to another principal. Every session route goes through here, or through
// get-readable-session.ts when it only reads.
import type { Prisma, PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { isOwner, type Principal } from "@/server/auth/principal";
import { AppError } from "@/server/errors";

export const ownedSessionSelect = {
  id: true,
  agentId: true,
  ownerKind: true,
  ownerId: true,
  channelId: true,
  mode: true,
  status: true,
  purpose: true,
  title: true,
  dryRun: true,
  nextIndex: true,
  continuationTokenHash: true,
  runningInvocationId: true,
  createdAt: true,
  updatedAt: true,
  agentVersion: { select: { number: true } },
} as const;

export type OwnedSession = Prisma.SessionGetPayload<{ select: typeof ownedSessionSelect }>;

export async function getOwnedSession(options: {
  db: PrismaClient;
  agentId: string;
  sessionId: string;
  principal: Principal;
}): Promise<OwnedSession> {
  const { db, agentId, sessionId, principal } = options;
  return ownedOrThrow(await findSession(db, agentId, sessionId), principal, sessionId);
}

/** The session if `principal` owns it: 404 when there is none (on this agent), else 403. */
export function ownedOrThrow<S extends { ownerKind: string; ownerId: string }>(
  session: S | undefined,
  principal: Principal,
  sessionId: string,
): S {
  if (!session) throw new AppError("not_found", `no session ${sessionId}`);
  if (!isOwner(principal, session)) throw new AppError("forbidden", "this session belongs to someone else");
  return session;
}

/** Every session route (the stream included) starts here: one prepared statement. */
export async function findSession(
  db: PrismaClient,
  agentId: string,
  sessionId: string,
): Promise<OwnedSession | undefined> {
  const { rows } = await poolOf(db).query<Omit<OwnedSession, "agentVersion"> & { versionNumber: number }>({
    name: "agentfold-owned-session",
    text: `SELECT s.id, s."agentId", s."ownerKind", s."ownerId", s."channelId", s.mode, s.status, s.purpose, s.title, s."dryRun",
             s."nextIndex", s."continuationTokenHash", s."runningInvocationId",
             s."createdAt" AT TIME ZONE 'UTC' AS "createdAt", s."updatedAt" AT TIME ZONE 'UTC' AS "updatedAt", v.number AS "versionNumber"
           FROM sessions s JOIN "AgentVersion" v ON v.id = s."agentVersionId" WHERE s.id = $1 AND s."agentId" = $2`,
    values: [sessionId, agentId],
  });
  const row = rows[0];
  if (!row) return undefined;
  const { versionNumber, ...session } = row;
  return { ...session, agentVersion: { number: versionNumber } };
}
