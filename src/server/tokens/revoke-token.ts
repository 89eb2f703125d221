// Revokes a token: every later request with it answers 401.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/http/app-error";
import { hashToken } from "./token-secret";

export async function revokeToken({ db, teamId, tokenId }: { db: PrismaClient; teamId: string; tokenId: string }): Promise<void> {
  const { count } = await db.apiToken.updateMany({ where: { id: tokenId, teamId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw new AppError("not_found", "no such active token in this team");
}

/** Revokes a token given its secret (what scripts hold): `agentfold token revoke --token af_…`. */
export async function revokeTokenBySecret({ db, token }: { db: PrismaClient; token: string }): Promise<void> {
  const { count } = await db.apiToken.updateMany({ where: { tokenHash: hashToken(token), revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0) throw new AppError("not_found", "no such active token");
}
