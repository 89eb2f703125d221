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
const quotedType = (type: string) => quotedTypes.get(type) ?? (quotedTypes.set(type, JSON.stringify(type)), quotedTypes.get(type)!);

function lineOf(quotedSessionId: string, index: number, type: string, turnId: string | null, at: string, data: string): EventLine {
  const turn = turnId ? `"turnId":${JSON.stringify(turnId)},` : "";
  return { index, type, line: `{"type":${quotedType(type)},"index":${index},"sessionId":${quotedSessionId},${turn}"at":"${at}","data":${data}}\n` };
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
  const { rows } = await poolOf(db).query<[number, string, string | null, string, string]>({
    name: "agentfold-read-event-lines",
    text: `SELECT index, type, "turnId", ${atText("at")} AS at, data::text AS data
           FROM session_events WHERE "sessionId" = $1 AND index >= $2 ORDER BY index LIMIT $3`,
    values: [sessionId, fromIndex, limit],
    rowMode: "array",
  });
  const quotedSessionId = JSON.stringify(sessionId);
  return rows.map(([index, type, turnId, at, data]) => lineOf(quotedSessionId, index, type, turnId, at, data));
}
