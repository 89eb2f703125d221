// GET /<slug>/v1/logs: an agent's log lines, oldest first, for a page or a poll. The cursor is a
// line id; ids order lines as they committed (agent-logs.ts), so "past the cursor" misses none.
// An answer that was not cut short by `limit` moves the cursor past every line there is, filtered
// out or not, read in the same statement, so a poll with filters does not read them again.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { type LogLevel, logLevels } from "@/shared/log-lines";
import type { FindLogsQuery, LogLine } from "./schema";

type Row = {
  id: string;
  at: Date;
  level: LogLevel;
  source: LogLine["source"];
  name: string | null;
  sessionId: string | null;
  turnId: string | null;
  message: string;
  newest: string | null;
};

export async function findAgentLogs(
  db: PrismaClient,
  agentId: string,
  query: FindLogsQuery,
): Promise<{ lines: LogLine[]; nextCursor: string }> {
  const levels = query.level ? logLevels.slice(logLevels.indexOf(query.level)) : null;
  // Forward from a cursor or a time; else the newest lines, turned around below.
  const isForward = query.cursor !== undefined || query.since !== undefined;
  const { rows } = await poolOf(db).query<Row>(
    `WITH newest AS (SELECT max(id)::text AS id FROM agent_logs WHERE "agentId" = $1)
     SELECT l.id::text AS id, l.at AT TIME ZONE 'UTC' AS at, l.level, l.source, l.name, l."sessionId", l."turnId",
       l.message, newest.id AS newest
     FROM newest LEFT JOIN LATERAL (
       SELECT * FROM agent_logs
       WHERE "agentId" = $1 AND ($2::bigint IS NULL OR id > $2::bigint)
         AND ($3::timestamptz IS NULL OR at >= $3::timestamptz AT TIME ZONE 'UTC')
         AND ($4::text[] IS NULL OR level = ANY($4)) AND ($5::text IS NULL OR "sessionId" = $5)
         AND ($6::text IS NULL OR source = $6)
       ORDER BY id ${isForward ? "ASC" : "DESC"} LIMIT $7) l ON true`,
    [
      agentId,
      query.cursor ?? null,
      query.since ?? null,
      levels,
      query.session ?? null,
      query.source ?? null,
      query.limit,
    ],
  );
  const found = rows.filter((row) => row.id !== null);
  const lines = (isForward ? found : found.reverse()).map(toLine);
  const newest = rows[0]?.newest ?? query.cursor ?? "0";
  // A page cut short by the limit goes on from its last line; else past everything read.
  const nextCursor = isForward && found.length === query.limit ? lines.at(-1)!.id : newest;
  return { lines, nextCursor };
}

function toLine(row: Row): LogLine {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    level: row.level,
    source: row.source,
    ...(row.name ? { name: row.name } : {}),
    ...(row.sessionId ? { sessionId: row.sessionId } : {}),
    ...(row.turnId ? { turnId: row.turnId } : {}),
    message: row.message,
  };
}
