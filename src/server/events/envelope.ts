// Event rows ↔ the wire envelope `{ type, index, sessionId, turnId?, at, data }` (docs/api.md,
// "Streams"), validated against the one event schema.
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";

export type EventRow = {
  sessionId: string;
  index: number;
  type: string;
  turnId: string | null;
  at: Date;
  data: unknown;
};

/** A stored row as its envelope. Rows were validated when written, so reads (the replay hot
 * path) do not parse them again. */
export function toEnvelope(row: EventRow): SessionEvent {
  const envelope = {
    type: row.type,
    index: row.index,
    sessionId: row.sessionId,
    ...(row.turnId ? { turnId: row.turnId } : {}),
    at: row.at.toISOString(),
    data: row.data,
  };
  return envelope as SessionEvent;
}

/** The same, checked against the vocabulary: for events about to be written. */
export function toValidEnvelope(row: EventRow): SessionEvent {
  return sessionEventSchema.parse(toEnvelope(row));
}
