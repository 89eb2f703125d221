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
  return {
    index: row.index,
    type: row.type,
    line: `{"type":${JSON.stringify(row.type)},"index":${row.index},"sessionId":${JSON.stringify(sessionId)},${row.turnId ? `"turnId":${JSON.stringify(row.turnId)},` : ""}"at":"${row.at}","data":${row.data}}\n`,
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
  const { rows } = await poolOf(db).query<StoredEventText>({
    name: "agentfold-read-event-lines",
    text: `SELECT index, type, "turnId", ${atText("at")} AS at, data::text AS data
           FROM session_events WHERE "sessionId" = $1 AND index >= $2 ORDER BY index LIMIT $3`,
    values: [sessionId, fromIndex, limit],
  });
  return rows.map((row) => eventLine(sessionId, row));
}
