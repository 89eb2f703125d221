// The approvals inbox of a team: calls waiting for a decision across its agents and sessions,
// newest first, and the decided ones with who decided. Admins see every session's; others see
// only calls made in their own sessions (the ones they may decide).
import type { PrismaClient } from "@prisma/client";
import type { Principal } from "@/server/auth/principal";

export async function findTeamApprovals(options: {
  db: PrismaClient;
  teamId: string;
  ownerId?: string;
  limit?: number;
}) {
  const { db, teamId, ownerId, limit = 50 } = options;
  const session = { agent: { teamId }, ...(ownerId ? { ownerKind: "user", ownerId } : {}) };
  const select = {
    callId: true,
    toolName: true,
    args: true,
    status: true,
    reason: true,
    decidedBy: true,
    decidedAt: true,
    createdAt: true,
    expiresAt: true,
    requestedBy: true,
    session: { select: { id: true, title: true, agent: { select: { slug: true, name: true } } } },
  } as const;
  const [pending, decided] = await Promise.all([
    db.approval.findMany({
      where: { status: "pending", session },
      orderBy: { createdAt: "desc" },
      take: limit,
      select,
    }),
    db.approval.findMany({
      where: { status: { not: "pending" }, session },
      orderBy: { decidedAt: "desc" },
      take: limit,
      select,
    }),
  ]);
  // Sessions record their owner as { kind, id }: put people's names to them for the inbox.
  const userIds = [...pending, ...decided].flatMap((row) => {
    const principal = row.requestedBy as Principal;
    return principal.kind === "user" ? [principal.id] : [];
  });
  const users = await db.user.findMany({
    where: { id: { in: [...new Set(userIds)] } },
    select: { id: true, name: true, email: true },
  });
  const named = (principal: Principal): Principal => {
    const user = principal.kind === "user" ? users.find((u) => u.id === principal.id) : undefined;
    return user
      ? {
          ...principal,
          attributes: {
            ...principal.attributes,
            ...(user.name ? { name: user.name } : {}),
            ...(user.email ? { email: user.email } : {}),
          },
        }
      : principal;
  };
  const shape = (row: (typeof pending)[number]) => ({
    callId: row.callId,
    toolName: row.toolName,
    args: row.args,
    status: row.status,
    reason: row.reason,
    decidedBy: row.decidedBy as Principal | null,
    requestedBy: named(row.requestedBy as Principal),
    decidedAt: row.decidedAt,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    sessionId: row.session.id,
    sessionTitle: row.session.title,
    agentSlug: row.session.agent.slug,
    agentName: row.session.agent.name,
  });
  return { pending: pending.map(shape), decided: decided.map(shape) };
}
