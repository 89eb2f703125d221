// Joins a user to the invite's team with its role, once: the invite is marked accepted in the
// same statement that checks it is still open.
import type { Prisma } from "@prisma/client";
import { AppError } from "@/server/errors";
import { hashToken } from "@/server/tokens/token-secret";

export async function claimInvite(options: {
  db: Prisma.TransactionClient;
  token: string;
  userId: string;
  email: string;
  now?: Date;
}) {
  const { db, token, userId, email, now = new Date() } = options;
  const invite = await db.invite.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      teamId: true,
      role: true,
      email: true,
      expiresAt: true,
      acceptedAt: true,
      revokedAt: true,
      team: { select: { slug: true } },
    },
  });
  if (!invite || invite.revokedAt)
    throw new AppError("not_found", "this invite link is not valid; ask a team admin for a new one");
  if (invite.acceptedAt)
    throw new AppError("conflict", "this invite link was already used; ask a team admin for a new one");
  if (invite.expiresAt <= now)
    throw new AppError("conflict", "this invite link has expired; ask a team admin for a new one");
  if (invite.email && invite.email.toLowerCase() !== email.toLowerCase())
    throw new AppError("forbidden", `this invite is for ${invite.email}`);
  const { count } = await db.invite.updateMany({
    where: { id: invite.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
    data: { acceptedAt: now, acceptedBy: userId },
  });
  if (count === 0) throw new AppError("conflict", "this invite link was already used; ask a team admin for a new one");
  await db.membership.upsert({
    where: { teamId_userId: { teamId: invite.teamId, userId } },
    create: { teamId: invite.teamId, userId, role: invite.role },
    update: {}, // already a member: an invite never changes a role
  });
  return { teamId: invite.teamId, teamSlug: invite.team.slug, role: invite.role };
}
