// Resolves `Authorization: Bearer af_…` to a caller. Revoked, expired or unknown tokens answer
// 401; a token is limited to its team, its agents and its actions. Last use is recorded at most
// once a minute, off the request's critical path.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/http/app-error";
import { grants } from "@/server/tokens/scopes";
import { hashToken, tokenPrefix } from "@/server/tokens/token-secret";
import { poolOf } from "@/server/db";
import type { Caller } from "./principal";

type TokenRow = {
  id: string;
  teamId: string;
  name: string;
  agentSlugs: string[];
  actions: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
};

export async function authenticateBearer(options: {
  db: PrismaClient;
  authorization: string;
  now?: Date;
}): Promise<Caller> {
  const { db, authorization, now = new Date() } = options;
  const match = authorization.match(/^Bearer\s+(\S+)$/i);
  if (!match || !match[1]!.startsWith(tokenPrefix)) throw new AppError("unauthorized", "expected Authorization: Bearer af_…");
  // Every API request runs this: one prepared statement rather than a Prisma query.
  const { rows } = await poolOf(db).query<TokenRow>({
    name: "agentfold-token-by-hash",
    // Stored as UTC without a zone (Prisma's convention): read back as instants.
    text: `SELECT id, "teamId", name, "agentSlugs", actions, "expiresAt" AT TIME ZONE 'UTC' AS "expiresAt",
             "revokedAt" AT TIME ZONE 'UTC' AS "revokedAt", "lastUsedAt" AT TIME ZONE 'UTC' AS "lastUsedAt"
           FROM "ApiToken" WHERE "tokenHash" = $1`,
    values: [hashToken(match[1]!)],
  });
  const token = rows[0];
  if (!token) throw new AppError("unauthorized", "unknown token");
  if (token.revokedAt) throw new AppError("unauthorized", "this token was revoked");
  if (token.expiresAt && token.expiresAt <= now) throw new AppError("unauthorized", "this token has expired");
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > 60_000) {
    void poolOf(db)
      .query(`UPDATE "ApiToken" SET "lastUsedAt" = $2::timestamptz AT TIME ZONE 'UTC' WHERE id = $1`, [token.id, now.toISOString()])
      .catch(() => undefined);
  }
  return {
    principal: { kind: "app", id: `token:${token.id}`, attributes: { name: token.name, teamId: token.teamId } },
    teamId: token.teamId,
    can: (action, slug, agentTeamId) =>
      agentTeamId === token.teamId && (token.agentSlugs.length === 0 || token.agentSlugs.includes(slug)) && grants(token.actions, action),
  };
}
