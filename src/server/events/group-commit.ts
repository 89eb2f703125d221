// Group commit for the event log: appends that arrive while a write is in flight are written
// together, in ONE statement (one round trip, one commit, one round of NOTIFY) for all their
// sessions. Per-session order is the order of the calls; indexes stay gapless because each
// session's row is locked (in id order, so concurrent batches cannot deadlock) while its
// indexes are assigned. NOTIFY serialises commits on a global lock, so fewer, larger commits
// are what raises sustained throughput.
import pg from "pg";
import type { SessionEvent } from "@/agents/sdk/events";
import { AppError } from "@/server/http/app-error";
import { toEnvelope, type EventRow } from "./envelope";
import { maxNotifyBytes } from "./notice";
import { atText } from "./read-events";

/** A turn step's journal row (src/server/turns/step-journal.ts), written by the same statement as
 * the events that end the step, so the step's record and its last events commit together. It is
 * written only while `epoch` is the session's turn epoch (a superseded run records nothing);
 * `stored` says whether it was. */
export type StepRecord = { turnId: string; name: string; sessionId: string; result: string | null; epoch: number; stored?: boolean };

export type AppendRequest = {
  sessionId: string;
  events: { type: string; data: unknown; turnId?: string; idempotencyKey?: string }[];
  at: Date;
  step?: StepRecord;
};

type Pending = AppendRequest & { resolve: (events: SessionEvent[]) => void; reject: (error: unknown) => void };

const maxEventsPerStatement = 1_000;
const queues = new WeakMap<pg.Pool, { pending: Pending[]; isFlushing: boolean }>();

export function groupAppend(pool: pg.Pool, request: AppendRequest, channel: string): Promise<SessionEvent[]> {
  let queue = queues.get(pool);
  if (!queue) queues.set(pool, (queue = { pending: [], isFlushing: false }));
  const state = queue;
  return new Promise((resolve, reject) => {
    state.pending.push({ ...request, resolve, reject });
    if (!state.isFlushing) {
      state.isFlushing = true;
      setImmediate(() => void flush(pool, state, channel));
    }
  });
}

async function flush(pool: pg.Pool, state: { pending: Pending[]; isFlushing: boolean }, channel: string): Promise<void> {
  while (state.pending.length > 0) {
    let count = 0;
    const batch: Pending[] = [];
    while (state.pending.length > 0 && (batch.length === 0 || count + state.pending[0]!.events.length <= maxEventsPerStatement)) {
      const next = state.pending.shift()!;
      count += next.events.length;
      batch.push(next);
    }
    try {
      settle(batch, await appendStatement(pool, batch, channel));
    } catch {
      // One bad request (say, a duplicate idempotency key racing in from another process)
      // must not fail the others: retry each alone, and let each answer for itself.
      for (const request of batch) await appendStatement(pool, [request], channel).then((rows) => settle([request], rows), request.reject);
    }
  }
  state.isFlushing = false;
}

/** Anything that runs a query: the pool, or one client inside a transaction. */
export type Queryable = Pick<pg.Pool, "query"> | pg.PoolClient;

/** The append statement for some requests, on any connection (inside a caller's transaction too). */
export async function appendStatement(db: Queryable, requests: AppendRequest[], channel: string): Promise<SessionEvent[][]> {
  const rows = await runStatement(db, requests, channel);
  const recorded = new Set(rows[0]?.recorded ?? []);
  for (const { step } of requests) if (step) step.stored = recorded.has(`${step.turnId}\t${step.name}`);
  const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
  let ord = 1;
  return requests.map((request) => request.events.flatMap(() => {
    const row = byOrd.get(ord++);
    if (!row) return [];
    const { ord: _, recorded: __, ...rest } = row;
    return [toEnvelope(rest)];
  }));
}

async function runStatement(db: Queryable, batch: AppendRequest[], channel: string): Promise<(EventRow & { ord: string; recorded: string[] })[]> {
  const flat = batch.flatMap((request) => request.events.map((event) => ({ ...event, sessionId: request.sessionId, at: request.at })));
  const steps = batch.flatMap((request) => (request.step ? [request.step] : []));
  const { rows } = await (db as pg.Pool).query<EventRow & { ord: string; recorded: string[] }>({
    // Not a named (prepared) statement: Postgres would cache a generic plan made while the
    // tables are small and keep scanning session_events in full for the idempotency check as they
    // grow, until an ANALYZE. Planned per call, it looks rows up by index at any size.
    text: groupAppendSql,
    values: [
      flat.map((e) => e.sessionId),
      flat.map((e) => e.type),
      flat.map((e) => e.turnId ?? null),
      flat.map((e) => JSON.stringify(e.data ?? null)),
      flat.map((e) => e.idempotencyKey ?? null),
      flat.map((e) => e.at.toISOString()),
      channel,
      steps.map((s) => s.turnId),
      steps.map((s) => s.name),
      steps.map((s) => s.sessionId),
      steps.map((s) => s.result),
      steps.map((s) => s.epoch),
    ],
  });
  return rows;
}

/** Hands each request its events; none at all means its session does not exist. */
function settle(batch: Pending[], results: SessionEvent[][]): void {
  batch.forEach((request, i) => {
    const mine = results[i] ?? [];
    if (mine.length === 0) request.reject(new AppError("not_found", `no session ${request.sessionId}`));
    else request.resolve(mine);
  });
}

// $1 session ids, $2 types, $3 turn ids, $4 data (JSON text), $5 idempotency keys, $6 times
// (ISO), $7 channel; $8–$12 the journal rows of steps these events end (turn ids, names, session
// ids, results, the epoch of the run recording them). Prisma keeps timestamps as UTC in "timestamp without time zone" columns;
// the AT TIME ZONE casts keep that convention whatever the server's or this process's zone.
const groupAppendSql = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
      WITH ORDINALITY AS t(session_id, type, turn_id, data, key, at, ord)
  ), locked AS (
    SELECT id, "nextIndex" AS base, "turnEpoch" AS epoch FROM sessions WHERE id IN (SELECT session_id FROM input) ORDER BY id FOR NO KEY UPDATE
  ), existing AS (
    SELECT e."sessionId", e.index, e.type, e."turnId", e.at AT TIME ZONE 'UTC' AS at, e.data, i.ord
      FROM session_events e JOIN input i ON e."sessionId" = i.session_id AND e."idempotencyKey" = i.key
  ), fresh AS (
    SELECT i.*, row_number() OVER (PARTITION BY i.session_id ORDER BY i.ord) - 1 AS position FROM input i
      WHERE NOT EXISTS (SELECT 1 FROM existing x WHERE x.ord = i.ord)
  ), inserted AS (
    INSERT INTO session_events ("sessionId", index, type, "turnId", at, data, "idempotencyKey")
      SELECT f.session_id, l.base + f.position, f.type, f.turn_id, f.at::timestamptz AT TIME ZONE 'UTC', f.data::jsonb, f.key
      FROM fresh f JOIN locked l ON l.id = f.session_id
      RETURNING "sessionId", index, type, "turnId", at AT TIME ZONE 'UTC' AS at, data, ${atText("at")} AS at_text
  ), counts AS (
    SELECT session_id, count(*) AS n FROM fresh GROUP BY session_id
  ), bumped AS (
    UPDATE sessions s SET "nextIndex" = l.base + c.n, "updatedAt" = now() AT TIME ZONE 'UTC'
      FROM locked l JOIN counts c ON c.session_id = l.id WHERE s.id = l.id
      RETURNING s.id, s."nextIndex"
  ), notified AS (
    -- "S:N", then the new events themselves when they fit in a notification (see notice.ts).
    SELECT pg_notify($7, CASE WHEN octet_length(n.head) + octet_length(n.body) < ${maxNotifyBytes} THEN n.head || n.body ELSE n.head END)
      FROM (
        SELECT b.id || ':' || (b."nextIndex" - 1) AS head,
               string_agg(E'\n' || i.index || E'\t' || i.type || E'\t' || coalesce(i."turnId", '') || E'\t' || i.at_text || E'\t' || i.data::text, '' ORDER BY i.index) AS body
          FROM bumped b JOIN inserted i ON i."sessionId" = b.id GROUP BY b.id, b."nextIndex"
      ) n
  ), recorded AS (
    INSERT INTO turn_steps ("turnId", name, "sessionId", result, at)
      SELECT s.turn_id, s.name, s.session_id, s.result, now() AT TIME ZONE 'UTC'
      FROM unnest($8::text[], $9::text[], $10::text[], $11::text[], $12::int[]) AS s(turn_id, name, session_id, result, epoch)
      JOIN locked l ON l.id = s.session_id AND l.epoch = s.epoch
      ON CONFLICT ("turnId", name) DO NOTHING
      RETURNING "turnId" || E'\t' || name AS step
  ), recorded_steps AS (
    SELECT coalesce(array_agg(step), '{}') AS recorded FROM recorded
  )
  SELECT ins."sessionId", ins.index, ins.type, ins."turnId", ins.at, ins.data, f.ord, r.recorded
    FROM inserted ins
    CROSS JOIN recorded_steps r
    JOIN fresh f ON f.session_id = ins."sessionId"
    JOIN locked l ON l.id = f.session_id AND ins.index = l.base + f.position
    CROSS JOIN (SELECT count(*) FROM notified) AS delivered
  UNION ALL
  SELECT x."sessionId", x.index, x.type, x."turnId", x.at, x.data, x.ord, r.recorded FROM existing x CROSS JOIN recorded_steps r
  ORDER BY ord`;
