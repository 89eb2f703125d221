// Reads a page of a session's log in index order.
import type { PrismaClient } from "@prisma/client";
import type { SessionEvent } from "@/agents/sdk/events";
import { toEnvelope } from "./envelope";

export async function readEvents(options: {
  db: PrismaClient;
  sessionId: string;
  fromIndex: number;
  limit?: number;
}): Promise<SessionEvent[]> {
  const { db, sessionId, fromIndex, limit = 500 } = options;
  const rows = await db.sessionEvent.findMany({
    where: { sessionId, index: { gte: fromIndex } },
    orderBy: { index: "asc" },
    take: limit,
    select: { sessionId: true, index: true, type: true, turnId: true, at: true, data: true },
  });
  return rows.map(toEnvelope);
}
