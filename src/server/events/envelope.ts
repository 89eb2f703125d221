// Event rows ↔ the wire envelope `{ type, index, sessionId, turnId?, at, data }` (spec §4.1),
// validated against the one event schema.
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";

export type EventRow = {
  sessionId: string;
  index: number;
  type: string;
  turnId: string | null;
  at: Date;
  data: unknown;
};

export function toEnvelope(row: EventRow): SessionEvent {
  return sessionEventSchema.parse({
    type: row.type,
    index: row.index,
    sessionId: row.sessionId,
    ...(row.turnId ? { turnId: row.turnId } : {}),
    at: row.at.toISOString(),
    data: row.data,
  });
}
