// Loads a session of an agent for its owner: 404 when there is no such session on this agent,
// 403 when it belongs to another principal. Every session route goes through here.
import type { PrismaClient } from "@prisma/client";
import { isOwner, type Principal } from "@/server/auth/principal";
import { AppError } from "@/server/http/app-error";

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

export async function getOwnedSession(options: { db: PrismaClient; agentId: string; sessionId: string; principal: Principal }) {
  const { db, agentId, sessionId, principal } = options;
  const session = await db.session.findFirst({ where: { id: sessionId, agentId }, select: ownedSessionSelect });
  if (!session) throw new AppError("not_found", `no session ${sessionId}`);
  if (!isOwner(principal, session)) throw new AppError("forbidden", "this session belongs to someone else");
  return session;
}
