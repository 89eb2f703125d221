// Reads a page of a session's log in index order, straight through pg: this is the replay hot
// path, and the query builder's per-row work costs more than the query itself.
import type { PrismaClient } from "@prisma/client";
import type { SessionEvent } from "@/agents/sdk/events";
import { poolOf } from "@/server/db";
import { toEnvelope, type EventRow } from "./envelope";

export async function readEvents(options: {
  db: PrismaClient;
  sessionId: string;
  fromIndex: number;
  limit?: number;
}): Promise<SessionEvent[]> {
  const { db, sessionId, fromIndex, limit = 500 } = options;
  const { rows } = await poolOf(db).query<EventRow>({
    name: "agentfold-read-events",
    text: `SELECT "sessionId", index, type, "turnId", at AT TIME ZONE 'UTC' AS at, data FROM session_events
           WHERE "sessionId" = $1 AND index >= $2 ORDER BY index LIMIT $3`,
    values: [sessionId, fromIndex, limit],
  });
  return rows.map(toEnvelope);
}

export type EventLine = { index: number; type: string; line: string };

/** An event's fields as stored (`at` formatted by SQL, data as JSON text). */
export type StoredEventText = { index: number; type: string; turnId: string | null; at: string; data: string };

/** The NDJSON line of a stored event; key order matches toEnvelope. */
export function eventLine(sessionId: string, row: StoredEventText): EventLine {
  return lineOf(JSON.stringify(sessionId), row.index, row.type, row.turnId, row.at, row.data);
}

// Event types are few: each is quoted once.
const quotedTypes = new Map<string, string>();
const quotedType = (type: string) =>
  quotedTypes.get(type) ?? (quotedTypes.set(type, JSON.stringify(type)), quotedTypes.get(type)!);

function lineOf(
  quotedSessionId: string,
  index: number,
  type: string,
  turnId: string | null,
  at: string,
  data: string,
): EventLine {
  const turn = turnId ? `"turnId":${JSON.stringify(turnId)},` : "";
  return {
    index,
    type,
    line: `{"type":${quotedType(type)},"index":${index},"sessionId":${quotedSessionId},${turn}"at":"${at}","data":${data}}\n`,
  };
}

/** How SQL formats a stored `at` for eventLine (UTC in a timestamp without time zone). */
export const atText = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The same page as ready NDJSON lines, for streams: the stored JSON is spliced in as text, so
 * replay neither parses nor re-serialises event data. Key order matches toEnvelope. */
export async function readEventLines(options: {
  db: PrismaClient;
  sessionId: string;
  fromIndex: number;
  limit?: number;
}): Promise<EventLine[]> {
  const { db, sessionId, fromIndex, limit = 500 } = options;
  // Rows as arrays: no object per row on the replay path.
  const { rows } = await poolOf(db).query<LineRow>({
    name: "agentfold-read-event-lines",
    text: `SELECT ${lineColumns} FROM session_events WHERE "sessionId" = $1 AND index >= $2 ORDER BY index LIMIT $3`,
    values: [sessionId, fromIndex, limit],
    rowMode: "array",
  });
  return linesOf(sessionId, rows);
}

/** An event's line columns, in the order LineRow reads them. */
const lineColumns = `index, type, "turnId", ${atText("at")} AS at, data::text AS data`;
type LineRow = [index: number, type: string, turnId: string | null, at: string, data: string];

function linesOf(sessionId: string, rows: LineRow[]): EventLine[] {
  const quotedSessionId = JSON.stringify(sessionId);
  return rows.map(([index, type, turnId, at, data]) => lineOf(quotedSessionId, index, type, turnId, at, data));
}

/** What a stream needs of its session before it sends anything: who owns it, and its mode. */
export type StreamedSession = { mode: "chat" | "task"; ownerKind: string; ownerId: string };

/**
 * A session of an agent and the first page of its log, in ONE statement (a stream's start: the
 * check and the replay's first read were two round trips). No session (of this agent): no rows,
 * and no events either.
 */
export async function readSessionAndEventLines(options: {
  db: PrismaClient;
  agentId: string;
  sessionId: string;
  fromIndex: number;
  limit: number;
}): Promise<{ session: StreamedSession | undefined; lines: EventLine[] }> {
  const { db, agentId, sessionId, fromIndex, limit } = options;
  // The session is the row without an index (its fields as JSON in the data column), then its
  // events in order (UNION ALL keeps each part's order).
  const { rows } = await poolOf(db).query<LineRow | [null, null, null, null, string]>({
    name: "agentfold-read-session-and-event-lines",
    text: `WITH s AS (SELECT s.mode, s."ownerKind", s."ownerId" FROM sessions s WHERE s.id = $1 AND s."agentId" = $2)
           SELECT NULL::int AS index, NULL AS type, NULL AS "turnId", NULL AS at, json_build_object('mode', s.mode, 'ownerKind', s."ownerKind", 'ownerId', s."ownerId")::text AS data FROM s
           UNION ALL
           (SELECT ${lineColumns} FROM session_events
             WHERE "sessionId" = $1 AND index >= $3 AND EXISTS (SELECT 1 FROM s) ORDER BY index LIMIT $4)`,
    values: [sessionId, agentId, fromIndex, limit],
    rowMode: "array",
  });
  const session = rows.find((row) => row[0] === null);
  if (!session) return { session: undefined, lines: [] };
  return {
    session: JSON.parse(session[4]) as StreamedSession,
    lines: linesOf(
      sessionId,
      rows.filter((row): row is LineRow => row[0] !== null),
    ),
  };
}
