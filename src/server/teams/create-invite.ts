// An invite link for one person to join a team with a role. The link's secret is returned once.
import crypto from "node:crypto";
import type { PrismaClient, Role } from "@prisma/client";
import { AppError } from "@/server/errors";
import { hashToken } from "@/server/tokens/token-secret";
import { canAssign } from "@/shared/roles";

export const inviteLifetimeDays = 7;

export async function createInvite(options: {
  db: PrismaClient;
  teamId: string;
  actorRole: Role;
  role: Role;
  email?: string;
  createdById: string;
  now?: Date;
}): Promise<{ id: string; token: string; expiresAt: Date }> {
  const { db, teamId, actorRole, role, email, createdById, now = new Date() } = options;
  if (!canAssign(actorRole, role))
    throw new AppError("forbidden", `a team ${actorRole} cannot invite someone as ${role}`);
  const token = `inv_${crypto.randomBytes(24).toString("base64url")}`;
  const expiresAt = new Date(now.getTime() + inviteLifetimeDays * 86_400_000);
  const invite = await db.invite.create({
    data: {
      teamId,
      role,
      email: email?.trim().toLowerCase() || null,
      tokenHash: hashToken(token),
      expiresAt,
      createdById,
    },
    select: { id: true },
  });
  return { id: invite.id, token, expiresAt };
}
