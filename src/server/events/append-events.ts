// Appends events to a session's log (through group commit, ./group-commit.ts). Indexes are
// gapless under concurrent appends: the session row is locked while indexes are assigned. An event with an idempotency key that is already in
// the log is not appended again (a replayed durable step), and the stored event is returned.
// Subscribers are told through NOTIFY, which Postgres delivers only when the transaction commits.
import type { Prisma, PrismaClient } from "@prisma/client";
import type { SessionEvent } from "@/agents/sdk/events";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/http/app-error";
import { toEnvelope, toValidEnvelope, type EventRow } from "./envelope";
import { groupAppend } from "./group-commit";

export const eventsChannel = "session_events";

export type NewEvent = {
  type: SessionEvent["type"];
  data: unknown;
  turnId?: string;
  /** A stable key per journaled step: the same key never appends twice. */
  idempotencyKey?: string;
};

export async function appendEvents(options: {
  db: PrismaClient;
  sessionId: string;
  events: NewEvent[];
  clock?: () => Date;
}): Promise<SessionEvent[]> {
  const { db, sessionId, events, clock = () => new Date() } = options;
  if (events.length === 0) return [];
  const at = clock();
  // Validate before writing (the index is not known yet and does not affect validity).
  for (const event of events) toValidEnvelope({ sessionId, index: 0, type: event.type, turnId: event.turnId ?? null, at, data: event.data });
  try {
    return await groupAppend(poolOf(db), { sessionId, events, at }, eventsChannel);
  } catch (error) {
    // Two appends racing with the same idempotency key: the loser's insert hits the unique
    // index. The transactional path sees the winner's row and returns it.
    if (!isUniqueViolation(error)) throw error;
    return db.$transaction((tx) => appendEventsInTransaction({ tx, sessionId, events, clock: () => at }));
  }
}

function isUniqueViolation(error: unknown): boolean {
  return /unique constraint|P2002|23505/i.test(String((error as Error)?.message ?? error));
}

/** The same, inside a transaction the caller owns (to write a row and its events together). */
export async function appendEventsInTransaction(options: {
  tx: Prisma.TransactionClient;
  sessionId: string;
  events: NewEvent[];
  clock?: () => Date;
}): Promise<SessionEvent[]> {
  const { tx, sessionId, events, clock = () => new Date() } = options;
  const locked = await tx.$queryRaw<{ nextIndex: number }[]>`
    SELECT "nextIndex" FROM sessions WHERE id = ${sessionId} FOR UPDATE`;
  if (locked.length === 0) throw new AppError("not_found", `no session ${sessionId}`);
  const keys = events.flatMap((e) => (e.idempotencyKey ? [e.idempotencyKey] : []));
  const existing = keys.length === 0 ? [] : await tx.sessionEvent.findMany({
    where: { sessionId, idempotencyKey: { in: keys } },
    select: { sessionId: true, index: true, type: true, turnId: true, at: true, data: true, idempotencyKey: true },
  });
  const byKey = new Map<string, EventRow & { idempotencyKey: string | null }>(existing.map((row) => [row.idempotencyKey!, row]));
  let next = locked[0]!.nextIndex;
  const at = clock();
  const rows: (EventRow & { idempotencyKey: string | null; isNew: boolean })[] = events.map((event) => {
    const stored = event.idempotencyKey ? byKey.get(event.idempotencyKey) : undefined;
    if (stored) return { ...stored, isNew: false };
    const row = { sessionId, index: next++, type: event.type, turnId: event.turnId ?? null, at, data: event.data, idempotencyKey: event.idempotencyKey ?? null, isNew: true };
    if (event.idempotencyKey) byKey.set(event.idempotencyKey, row);
    return row;
  });
  const fresh = rows.filter((row) => row.isNew);
  // Validate before writing: a producer that drifts from the vocabulary fails here, loudly.
  const envelopes = rows.map((row) => (row.isNew ? toValidEnvelope(row) : toEnvelope(row)));
  if (fresh.length > 0) {
    await tx.sessionEvent.createMany({
      data: fresh.map(({ isNew: _, data, ...row }) => ({ ...row, data: data as Prisma.InputJsonValue })),
    });
    await tx.$executeRaw`UPDATE sessions SET "nextIndex" = ${next}, "updatedAt" = now() WHERE id = ${sessionId}`;
    await tx.$executeRaw`SELECT pg_notify(${eventsChannel}, ${`${sessionId}:${next - 1}`})`;
  }
  return envelopes;
}
