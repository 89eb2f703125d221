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

/** The same page as ready NDJSON lines, for streams: the stored JSON is spliced in as text, so
 * replay neither parses nor re-serialises event data. Key order matches toEnvelope. */
export async function readEventLines(options: {
  db: PrismaClient;
  sessionId: string;
  fromIndex: number;
  limit?: number;
}): Promise<EventLine[]> {
  const { db, sessionId, fromIndex, limit = 500 } = options;
  const { rows } = await poolOf(db).query<{ index: number; type: string; turnId: string | null; at: string; data: string }>({
    name: "agentfold-read-event-lines",
    text: `SELECT index, type, "turnId", to_char(at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, data::text AS data
           FROM session_events WHERE "sessionId" = $1 AND index >= $2 ORDER BY index LIMIT $3`,
    values: [sessionId, fromIndex, limit],
  });
  const id = JSON.stringify(sessionId);
  return rows.map((row) => ({
    index: row.index,
    type: row.type,
    line: `{"type":${JSON.stringify(row.type)},"index":${row.index},"sessionId":${id},${row.turnId ? `"turnId":${JSON.stringify(row.turnId)},` : ""}"at":"${row.at}","data":${row.data}}\n`,
  }));
}
