// A team's members and open invites, and the changes admins make to them. Every change keeps at
// least one owner, so a team can never lock itself out.
import type { Prisma, PrismaClient, Role } from "@prisma/client";
import { AppError } from "@/server/errors";
import { isTokenAction } from "@/server/tokens/scopes";
import { canAssign, isAtLeast, roleGrants } from "@/shared/roles";
import { forgetCredentials } from "@/server/auth/credential-cache";

export async function findMembers({ db, teamId, now = new Date() }: { db: PrismaClient; teamId: string; now?: Date }) {
  const [members, invites] = await Promise.all([
    db.membership.findMany({
      where: { teamId },
      select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
      orderBy: { createdAt: "asc" },
    }),
    db.invite.findMany({
      where: { teamId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      select: { id: true, role: true, email: true, expiresAt: true, createdAt: true },
      orderBy: { createdAt: "desc" },
    }),
  ]);
  return {
    members: members.map((m) => ({
      userId: m.user.id,
      email: m.user.email ?? "",
      name: m.user.name,
      role: m.role,
      joinedAt: m.createdAt,
    })),
    invites,
  };
}

type Tx = Prisma.TransactionClient;

/** Inside the change's transaction, under the team row's lock: two owners demoting each other at
 * the same moment are ordered, and the second finds no other owner left. */
async function assertOwnerRemains(tx: Tx, teamId: string, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Team" WHERE id = ${teamId} FOR UPDATE`;
  const owners = await tx.membership.count({ where: { teamId, role: "owner", userId: { not: userId } } });
  if (owners === 0) throw new AppError("conflict", "a team needs at least one owner; make someone else owner first");
}

export async function setMemberRole(options: {
  db: PrismaClient;
  teamId: string;
  actorRole: Role;
  userId: string;
  role: Role;
}): Promise<void> {
  const { db, teamId, actorRole, userId, role } = options;
  const current = await db.membership.findUnique({
    where: { teamId_userId: { teamId, userId } },
    select: { role: true },
  });
  if (!current) throw new AppError("not_found", "no such member in this team");
  if (!canAssign(actorRole, role) || !canAssign(actorRole, current.role))
    throw new AppError("forbidden", `a team ${actorRole} cannot change a ${current.role} to ${role}`);
  await db.$transaction(async (tx) => {
    if (current.role === "owner" && role !== "owner") await assertOwnerRemains(tx, teamId, userId);
    await tx.membership.update({ where: { teamId_userId: { teamId, userId } }, data: { role } });
    // Tokens never carry more than their creator's role: those that now would are revoked.
    const tokens = await tx.apiToken.findMany({
      where: { teamId, createdById: userId, revokedAt: null },
      select: { id: true, actions: true },
    });
    const beyond = tokens.filter((t) => t.actions.some((a) => a === "*" || !isTokenAction(a) || !roleGrants(role, a)));
    if (beyond.length > 0)
      await tx.apiToken.updateMany({ where: { id: { in: beyond.map((t) => t.id) } }, data: { revokedAt: new Date() } });
    if (!isAtLeast(role, "admin"))
      await tx.invite.updateMany({
        where: { teamId, createdById: userId, acceptedAt: null, revokedAt: null },
        data: { revokedAt: new Date() },
      });
  });
  forgetCredentials();
}

export async function removeMember(options: {
  db: PrismaClient;
  teamId: string;
  actorRole: Role;
  userId: string;
}): Promise<void> {
  const { db, teamId, actorRole, userId } = options;
  const current = await db.membership.findUnique({
    where: { teamId_userId: { teamId, userId } },
    select: { role: true },
  });
  if (!current) throw new AppError("not_found", "no such member in this team");
  if (!canAssign(actorRole, current.role))
    throw new AppError("forbidden", `a team ${actorRole} cannot remove a ${current.role}`);
  // Someone who leaves takes their tokens and open invites along.
  const now = new Date();
  await db.$transaction(async (tx) => {
    if (current.role === "owner") await assertOwnerRemains(tx, teamId, userId);
    await tx.membership.delete({ where: { teamId_userId: { teamId, userId } } });
    await tx.apiToken.updateMany({ where: { teamId, createdById: userId, revokedAt: null }, data: { revokedAt: now } });
    await tx.invite.updateMany({
      where: { teamId, createdById: userId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
  });
  forgetCredentials();
}

export async function revokeInvite({
  db,
  teamId,
  inviteId,
}: {
  db: PrismaClient;
  teamId: string;
  inviteId: string;
}): Promise<void> {
  const { count } = await db.invite.updateMany({
    where: { id: inviteId, teamId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw new AppError("not_found", "no such open invite in this team");
}
