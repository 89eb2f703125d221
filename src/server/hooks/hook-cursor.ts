// How far hooks have seen each session's log (table hook_cursors), and who is delivering it now.
// An event is claimed before it is handed to hooks: the cursor moves past it and the claimer's
// lease is renewed in one statement. That makes delivery at most once — a worker that dies
// after claiming and before (or while) delivering loses that one event for the hooks it had not
// reached — and it lets one worker at a time deliver a session, in log order
// (docs/agent-folders.md, "Hooks").
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { eventsChannelSql, hasHooksSql, versionDeliversSql } from "./hook-target";

/** The session's cursor, made at -1 (nothing seen) for a session hooks have not met before. */
export async function readCursor(db: PrismaClient, sessionId: string): Promise<number> {
  const { rows } = await poolOf(db).query<{ deliveredIndex: number }>({
    name: "agentfold-hook-cursor",
    text: `WITH made AS (
             INSERT INTO hook_cursors ("sessionId", "deliveredIndex") VALUES ($1, -1)
             ON CONFLICT ("sessionId") DO NOTHING RETURNING "deliveredIndex")
           SELECT "deliveredIndex" FROM made UNION ALL SELECT "deliveredIndex" FROM hook_cursors WHERE "sessionId" = $1`,
    values: [sessionId],
  });
  return rows[0]?.deliveredIndex ?? -1;
}

/** Claims event `index` for `owner`, holding the session for `leaseSeconds` (as long as its hooks
 * may take with it): false when it was claimed already, or another worker holds the session. */
export async function claimEvent(
  db: PrismaClient,
  claim: { sessionId: string; index: number; owner: string; leaseSeconds: number },
): Promise<boolean> {
  const { sessionId, index, owner, leaseSeconds } = claim;
  const { rowCount } = await poolOf(db).query({
    name: "agentfold-hook-claim",
    text: `UPDATE hook_cursors SET "deliveredIndex" = $2, owner = $3,
             "leaseUntil" = (now() + make_interval(secs => $4)) AT TIME ZONE 'UTC'
           WHERE "sessionId" = $1 AND "deliveredIndex" < $2
             AND (owner IS NULL OR owner = $3 OR "leaseUntil" < now() AT TIME ZONE 'UTC')`,
    values: [sessionId, index, owner, leaseSeconds],
  });
  return rowCount === 1;
}

/** Lets go of the session; answers whether events arrived meanwhile that nobody claimed. */
export async function releaseSession(db: PrismaClient, sessionId: string, owner: string): Promise<boolean> {
  const { rows } = await poolOf(db).query<{ isBehind: boolean }>({
    name: "agentfold-hook-release",
    text: `WITH released AS (
             UPDATE hook_cursors SET owner = NULL, "leaseUntil" = NULL
             WHERE "sessionId" = $1 AND owner = $2 RETURNING "deliveredIndex")
           SELECT s."nextIndex" - 1 > r."deliveredIndex" AS "isBehind" FROM released r, sessions s WHERE s.id = $1`,
    values: [sessionId, owner],
  });
  return rows[0]?.isBehind ?? false;
}

/**
 * Sessions whose hooks are behind their log: after a worker start or a lost LISTEN connection,
 * the notices sent meanwhile are gone. Sessions with hooks or channel events only; a session
 * without a cursor was created after they were delivered, so all of its log is new to them.
 */
export async function sessionsBehind(db: PrismaClient, limit = 500): Promise<string[]> {
  const { rows } = await poolOf(db).query<{ id: string }>({
    name: "agentfold-hook-behind",
    // Versions that deliver anything first (few), then their sessions: not every session's manifest.
    text: `WITH delivering AS (SELECT v.id FROM "AgentVersion" v WHERE ${versionDeliversSql})
           SELECT s.id FROM sessions s
             JOIN delivering d ON d.id = s."agentVersionId"
             JOIN "AgentVersion" v ON v.id = s."agentVersionId"
             LEFT JOIN hook_cursors c ON c."sessionId" = s.id
           WHERE (${hasHooksSql} OR ${eventsChannelSql} IS NOT NULL)
             AND s."nextIndex" - 1 > coalesce(c."deliveredIndex", -1)
             AND (c.owner IS NULL OR c."leaseUntil" < now() AT TIME ZONE 'UTC')
           ORDER BY s."updatedAt" LIMIT $1`,
    values: [limit],
  });
  return rows.map((row) => row.id);
}
