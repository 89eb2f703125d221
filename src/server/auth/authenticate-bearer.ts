// Resolves `Authorization: Bearer af_…` to a caller. Revoked, expired or unknown tokens answer
// 401; a token is limited to its team, its agents and its actions. Last use is recorded at most
// once a minute, off the request's critical path.
import type { PrismaClient, Role } from "@prisma/client";
import { AppError } from "@/server/errors";
import { isAtLeast } from "@/shared/roles";
import { grants } from "@/server/tokens/scopes";
import { hashToken, tokenPrefix } from "@/server/tokens/token-secret";
import { poolOf } from "@/server/db";
import type { Caller } from "./principal";

export type TokenRow = {
  id: string;
  teamId: string;
  name: string;
  agentSlugs: string[];
  actions: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdById: string | null;
};

/** The token's columns as TokenRow reads them, for a statement that selects `t` from "ApiToken".
 * Stored as UTC without a zone (Prisma's convention): read back as instants. */
export const tokenColumns = `t.id, t."teamId", t.name, t."agentSlugs", t.actions, t."expiresAt" AT TIME ZONE 'UTC' AS "expiresAt",
  t."revokedAt" AT TIME ZONE 'UTC' AS "revokedAt", t."lastUsedAt" AT TIME ZONE 'UTC' AS "lastUsedAt", t."createdById"`;

export async function authenticateBearer(options: {
  db: PrismaClient;
  authorization: string;
  now?: Date;
}): Promise<Caller> {
  const { db, authorization, now = new Date() } = options;
  const tokenHash = bearerTokenHash(authorization);
  // Every API request runs this: one prepared statement rather than a Prisma query.
  const { rows } = await poolOf(db).query<TokenRow>({
    name: "agentfold-token-by-hash",
    text: `SELECT ${tokenColumns} FROM "ApiToken" t WHERE t."tokenHash" = $1`,
    values: [tokenHash],
  });
  return callerOfToken({ db, token: rows[0], now });
}

/** The SHA-256 a bearer header's token is stored under; 401 for anything but `Bearer af_…`. */
export function bearerTokenHash(authorization: string): string {
  const match = authorization.match(/^Bearer\s+(\S+)$/i);
  if (!match || !match[1]!.startsWith(tokenPrefix))
    throw new AppError("unauthorized", "expected Authorization: Bearer af_…");
  return hashToken(match[1]!);
}

/** The caller a looked-up token row stands for, or 401 (unknown, revoked, expired). */
export function callerOfToken({
  db,
  token,
  now,
}: {
  db: PrismaClient;
  token: TokenRow | undefined;
  now: Date;
}): Caller {
  if (!token) throw new AppError("unauthorized", "unknown token");
  if (token.revokedAt) throw new AppError("unauthorized", "this token was revoked");
  if (token.expiresAt && token.expiresAt <= now) throw new AppError("unauthorized", "this token has expired");
  recordLastUse(db, token, now);
  const can: Caller["can"] = (action, slug, agentTeamId) =>
    agentTeamId === token.teamId &&
    (token.agentSlugs.length === 0 || token.agentSlugs.includes(slug)) &&
    grants(token.actions, action);
  return {
    principal: { kind: "app", id: `token:${token.id}`, attributes: { name: token.name, teamId: token.teamId } },
    teamId: token.teamId,
    can,
    canReadTaskSessions: async (slug, agentTeamId) =>
      can("sessions:read", slug, agentTeamId) && (await isMadeByAdmin(db, token)),
  };
}

/** A token never carries more than its creator's role: it reads others' task sessions only while
 * whoever made it could (an admin or owner of its team), or when it was made headless (the CLI). */
async function isMadeByAdmin(db: PrismaClient, token: TokenRow): Promise<boolean> {
  if (!token.createdById) return true;
  const { rows } = await poolOf(db).query<{ isInstanceAdmin: boolean; role: string | null }>(
    `SELECT u."isInstanceAdmin", m.role FROM "User" u LEFT JOIN "Membership" m ON m."userId" = u.id AND m."teamId" = $2 WHERE u.id = $1`,
    [token.createdById, token.teamId],
  );
  const row = rows[0];
  return Boolean(row && (row.isInstanceAdmin || (row.role && isAtLeast(row.role as Role, "admin"))));
}

// When this process last wrote each token's last use: until the write commits, the rows other
// requests read still show the old time, and without this each of them would write it again.
const lastUseWrittenAt = new Map<string, number>();
const lastUsePeriodMs = 60_000;

/** Never awaited: the request does not wait for (or fail with) this bookkeeping write. */
function recordLastUse(db: PrismaClient, token: TokenRow, now: Date): void {
  const nowMs = now.getTime();
  const seenMs = Math.max(token.lastUsedAt?.getTime() ?? -Infinity, lastUseWrittenAt.get(token.id) ?? -Infinity);
  if (nowMs - seenMs <= lastUsePeriodMs) return;
  if (lastUseWrittenAt.size > 10_000) lastUseWrittenAt.clear();
  lastUseWrittenAt.set(token.id, nowMs);
  void poolOf(db)
    .query({
      name: "agentfold-token-last-use",
      text: `UPDATE "ApiToken" SET "lastUsedAt" = $2::timestamptz AT TIME ZONE 'UTC' WHERE id = $1`,
      values: [token.id, now.toISOString()],
    })
    .catch(() => undefined);
}
