// Revokes a token: every later request with it answers 401.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";
import { hashToken } from "./token-secret";
import { forgetCredentials } from "@/server/auth/credential-cache";

/** `onlyCreatedBy`: a member who is not an admin may revoke only the tokens they created. */
export async function revokeToken({
  db,
  teamId,
  tokenId,
  onlyCreatedBy,
}: {
  db: PrismaClient;
  teamId: string;
  tokenId: string;
  onlyCreatedBy?: string;
}): Promise<void> {
  const active = { id: tokenId, teamId, revokedAt: null };
  const { count } = await db.apiToken.updateMany({
    where: { ...active, ...(onlyCreatedBy ? { createdById: onlyCreatedBy } : {}) },
    data: { revokedAt: new Date() },
  });
  forgetCredentials();
  if (count > 0) return;
  // Nothing revoked: say why (only this path reads twice).
  if (onlyCreatedBy && (await db.apiToken.count({ where: active })) > 0)
    throw new AppError("forbidden", "only admins may revoke other people's tokens");
  throw new AppError("not_found", "no such active token in this team");
}

/** Revokes a token given its secret (what scripts hold): `agentfold token revoke --token af_…`.
 * With `teamIds` (over HTTP), only a token of the caller's teams: holding a secret already lets one act as
 * it, so revoking it needs nothing more than that. */
export async function revokeTokenBySecret({
  db,
  token,
  teamIds,
}: {
  db: PrismaClient;
  token: string;
  teamIds?: string[];
}): Promise<void> {
  const { count } = await db.apiToken.updateMany({
    where: { tokenHash: hashToken(token), revokedAt: null, ...(teamIds ? { teamId: { in: teamIds } } : {}) },
    data: { revokedAt: new Date() },
  });
  forgetCredentials();
  if (count === 0)
    throw new AppError("not_found", teamIds ? "no such active token in this team" : "no such active token");
}
