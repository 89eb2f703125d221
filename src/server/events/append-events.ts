// Appends events to a session's log. Indexes are gapless under concurrent appends: the session
// row is locked while indexes are assigned. An event with an idempotency key that is already in
// the log is not appended again (a replayed durable step), and the stored event is returned.
// Subscribers are told through NOTIFY, which Postgres delivers only when the transaction commits.
import type { Prisma, PrismaClient } from "@prisma/client";
import type { SessionEvent } from "@/agents/sdk/events";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/http/app-error";
import { toEnvelope, toValidEnvelope, type EventRow } from "./envelope";

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
    return await appendInOneStatement(db, sessionId, events, at);
  } catch (error) {
    // Two appends racing with the same idempotency key: the loser's insert hits the unique
    // index. The transactional path sees the winner's row and returns it.
    if (!isUniqueViolation(error)) throw error;
    return db.$transaction((tx) => appendEventsInTransaction({ tx, sessionId, events, clock: () => at }));
  }
}

/** The hot path: one statement, so one round trip. The row lock (FOR UPDATE) serialises
 * concurrent appends to a session; READ COMMITTED re-reads the locked row, so each statement
 * sees the index the previous one left. NOTIFY is delivered when the statement commits. */
async function appendInOneStatement(db: PrismaClient, sessionId: string, events: NewEvent[], at: Date): Promise<SessionEvent[]> {
  const types = events.map((e) => e.type);
  const turnIds = events.map((e) => e.turnId ?? null);
  const data = events.map((e) => JSON.stringify(e.data ?? null));
  const keys = events.map((e) => e.idempotencyKey ?? null);
  // Named: prepared once per connection, so the planner runs once, not on every append.
  const { rows } = await poolOf(db).query<EventRow>({
    name: "agentfold-append-events",
    text: appendSql,
    values: [sessionId, types, turnIds, data, keys, at.toISOString(), eventsChannel],
  });
  if (rows.length === 0 && (await poolOf(db).query("SELECT 1 FROM sessions WHERE id = $1", [sessionId])).rowCount === 0) {
    throw new AppError("not_found", `no session ${sessionId}`);
  }
  return rows.map(toEnvelope);
}

// $1 session id, $2 types, $3 turn ids, $4 data (JSON text), $5 idempotency keys, $6 time (ISO),
// $7 channel. Prisma keeps timestamps as UTC in "timestamp without time zone" columns; the
// AT TIME ZONE casts keep that convention whatever the server's or this process's zone.
const appendSql = `
  WITH input AS (
    SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(type, turn_id, data, key, ord)
  ), locked AS (
    SELECT "nextIndex" AS base FROM sessions WHERE id = $1 FOR UPDATE
  ), existing AS (
    SELECT e.*, i.ord FROM session_events e JOIN input i ON e."sessionId" = $1 AND e."idempotencyKey" = i.key
  ), fresh AS (
    SELECT i.*, row_number() OVER (ORDER BY i.ord) - 1 AS position FROM input i
    WHERE NOT EXISTS (SELECT 1 FROM existing x WHERE x.ord = i.ord)
  ), inserted AS (
    INSERT INTO session_events ("sessionId", index, type, "turnId", at, data, "idempotencyKey")
    SELECT $1, locked.base + fresh.position, fresh.type, fresh.turn_id, $6::timestamptz AT TIME ZONE 'UTC', fresh.data::jsonb, fresh.key FROM fresh, locked
    RETURNING "sessionId", index, type, "turnId", at AT TIME ZONE 'UTC' AS at, data
  ), bumped AS (
    UPDATE sessions SET "nextIndex" = locked.base + (SELECT count(*) FROM fresh), "updatedAt" = now()
    FROM locked WHERE id = $1 AND (SELECT count(*) FROM fresh) > 0
    RETURNING "nextIndex"
  ), notified AS (
    SELECT pg_notify($7, $1 || ':' || ("nextIndex" - 1)) FROM bumped
  )
  SELECT ins."sessionId", ins.index, ins.type, ins."turnId", ins.at, ins.data, f.ord
    FROM inserted ins
    JOIN fresh f ON ins.index = (SELECT base FROM locked) + f.position
    CROSS JOIN (SELECT count(*) FROM notified) AS delivered
  UNION ALL
  SELECT x."sessionId", x.index, x.type, x."turnId", x.at AT TIME ZONE 'UTC', x.data, x.ord FROM existing x
  ORDER BY ord`;

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
