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
