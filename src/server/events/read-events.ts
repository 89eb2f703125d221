// Reads a page of a session's log in index order. Raw SQL: this is the replay hot path, and
// the query builder's per-row mapping costs more than the query itself.
import type { PrismaClient } from "@prisma/client";
import type { SessionEvent } from "@/agents/sdk/events";
import { toEnvelope, type EventRow } from "./envelope";

export async function readEvents(options: {
  db: PrismaClient;
  sessionId: string;
  fromIndex: number;
  limit?: number;
}): Promise<SessionEvent[]> {
  const { db, sessionId, fromIndex, limit = 500 } = options;
  const rows = await db.$queryRaw<EventRow[]>`
    SELECT "sessionId", index, type, "turnId", at, data FROM session_events
    WHERE "sessionId" = ${sessionId} AND index >= ${fromIndex}
    ORDER BY index LIMIT ${limit}`;
  return rows.map(toEnvelope);
}
