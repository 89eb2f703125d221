// Resolves `Authorization: Bearer af_…` to a caller. Revoked, expired or unknown tokens answer
// 401; a token is limited to its team, its agents and its actions. Last use is recorded at most
// once a minute, off the request's critical path.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/http/app-error";
import { grants } from "@/server/tokens/scopes";
import { hashToken, tokenPrefix } from "@/server/tokens/token-secret";
import type { Caller } from "./principal";

export async function authenticateBearer(options: {
  db: PrismaClient;
  authorization: string;
  now?: Date;
}): Promise<Caller> {
  const { db, authorization, now = new Date() } = options;
  const match = authorization.match(/^Bearer\s+(\S+)$/i);
  if (!match || !match[1]!.startsWith(tokenPrefix)) throw new AppError("unauthorized", "expected Authorization: Bearer af_…");
  const token = await db.apiToken.findUnique({
    where: { tokenHash: hashToken(match[1]!) },
    select: { id: true, teamId: true, name: true, agentSlugs: true, actions: true, expiresAt: true, revokedAt: true, lastUsedAt: true },
  });
  if (!token) throw new AppError("unauthorized", "unknown token");
  if (token.revokedAt) throw new AppError("unauthorized", "this token was revoked");
  if (token.expiresAt && token.expiresAt <= now) throw new AppError("unauthorized", "this token has expired");
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > 60_000) {
    void db.apiToken.update({ where: { id: token.id }, data: { lastUsedAt: now } }).catch(() => undefined);
  }
  return {
    principal: { kind: "app", id: `token:${token.id}`, attributes: { name: token.name, teamId: token.teamId } },
    teamId: token.teamId,
    can: (action, slug, agentTeamId) =>
      agentTeamId === token.teamId && (token.agentSlugs.length === 0 || token.agentSlugs.includes(slug)) && grants(token.actions, action),
  };
}
