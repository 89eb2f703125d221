// Group commit for the event log: appends that arrive while a write is in flight are written
// together, in ONE statement (one round trip, one commit, one round of NOTIFY) for all their
// sessions. Per-session order is the order of the calls; indexes stay gapless because each
// session's row is locked (in id order, so concurrent batches cannot deadlock) while its
// indexes are assigned. NOTIFY serialises commits on a global lock, so fewer, larger commits
// are what raises sustained throughput.
import { setImmediate as afterPendingCallbacks } from "node:timers/promises";
import pg from "pg";
import type { SessionEvent } from "@/agents/sdk/events";
import { AppError } from "@/server/errors";
import { toEnvelope, type EventRow } from "./envelope";
import { maxNotifyBytes } from "./notice";
import { storableJson } from "./storable-json";

/** A turn step's journal row (src/server/turns/step-journal.ts), written by the same statement as
 * the events that end the step, so the step's record and its last events commit together. It is
 * written only while `epoch` is the session's turn epoch (a superseded run records nothing);
 * `stored` says whether it was. */
export type StepRecord = {
  turnId: string;
  name: string;
  sessionId: string;
  result: string | null;
  epoch: number;
  stored?: boolean;
  /** Set by a step that returns while its last append is still being written (a deferred
   * record): settles when that append is stored (`stored` then says whether the record was). */
  written?: Promise<unknown>;
};

export type AppendRequest = {
  sessionId: string;
  events: { type: string; data: unknown; turnId?: string; idempotencyKey?: string }[];
  at: Date;
  step?: StepRecord;
  /**
   * The events end their turn (their turnId) and set the session waiting, all or nothing: only
   * while the turn still owns the chat session, nothing waits for it (a coalesced send, a pending
   * approval), none of them is in the log yet, and nobody changed the session meanwhile.
   * Otherwise nothing of this request is written and it answers no events.
   */
  endsTurn?: boolean;
  /**
   * Nothing waits for this append yet (a step's deferred record, step-journal.ts): found with
   * nothing in flight, it waits up to lingerMs for the turn's next append to join it in the same
   * statement, instead of going out alone and making that one wait behind it. Any append that is
   * not lingering, or hurryAppends, ends the wait.
   */
  linger?: boolean;
  /**
   * The events go in even when `step`'s epoch is no longer the session's. Otherwise a request
   * with a step is fenced like its journal row: a superseded run appends nothing more.
   */
  unfenced?: boolean;
};

type Pending = AppendRequest & {
  resolve: (events: SessionEvent[]) => void;
  reject: (error: unknown) => void;
  /** The session's request queued before this one, while it was not yet answered. */
  after?: Pending;
  hasFailed?: boolean;
};

type Queue = {
  pool: pg.Pool;
  channel: string;
  pending: Pending[];
  isFlushing: boolean;
  lastOfSession: Map<string, Pending>;
  lingering?: NodeJS.Timeout;
  lingerStart?: number;
};

const maxEventsPerStatement = 1_000;
/** A turn's next append follows its previous one within a few milliseconds when its model and
 * tools answer at once; behind a slow one, events show at most maxLingerMs late. */
export const lingerMs = 5;
const maxLingerMs = 20;
const queues = new WeakMap<pg.Pool, Queue>();

export function groupAppend(pool: pg.Pool, request: AppendRequest, channel: string): Promise<SessionEvent[]> {
  let queue = queues.get(pool);
  if (!queue) queues.set(pool, (queue = { pool, channel, pending: [], isFlushing: false, lastOfSession: new Map() }));
  const state = queue;
  return new Promise((resolve, reject) => {
    const pending: Pending = { ...request, resolve, reject, after: state.lastOfSession.get(request.sessionId) };
    state.lastOfSession.set(request.sessionId, pending);
    state.pending.push(pending);
    // While a statement is in flight, the next one takes whatever arrived meanwhile anyway.
    if (state.isFlushing) return;
    if (!request.linger) return startFlush(state);
    // Each lingering append extends the wait by lingerMs, up to maxLingerMs in all.
    const now = performance.now();
    state.lingerStart ??= now;
    clearTimeout(state.lingering);
    state.lingering = setTimeout(
      () => startFlush(state),
      Math.max(0, Math.min(lingerMs, state.lingerStart + maxLingerMs - now)),
    );
  });
}

/** Writes what lingers in the pool's queue now: someone waits for it. */
export function hurryAppends(pool: pg.Pool): void {
  const state = queues.get(pool);
  if (state?.lingering) startFlush(state);
}

function startFlush(state: Queue): void {
  clearTimeout(state.lingering);
  state.lingering = undefined;
  state.lingerStart = undefined;
  if (state.isFlushing) return;
  state.isFlushing = true;
  setImmediate(() => void flush(state.pool, state, state.channel));
}

// A session's appends are written in the order they were asked for, and none after an earlier
// one of its own failed: its log never skips a lost append (a turn whose step did not wait for
// its append goes on meanwhile, step-journal.ts).
async function flush(pool: pg.Pool, state: Queue, channel: string): Promise<void> {
  const answer = (request: Pending, outcome: { events: SessionEvent[] } | { error: unknown }) => {
    if (state.lastOfSession.get(request.sessionId) === request) state.lastOfSession.delete(request.sessionId);
    request.after = undefined;
    if ("events" in outcome) return request.resolve(outcome.events);
    request.hasFailed = true;
    request.reject(outcome.error);
  };
  const afterFailure = (request: Pending) => ({
    error: new Error(`not appended: an earlier append of session ${request.sessionId} failed`),
  });
  for (let isFirst = true; ; isFirst = false) {
    // What the last statement's answers set going (a turn's finish, requested as its last step
    // returns) joins the next statement: it is formed once they have run.
    if (!isFirst) await afterPendingCallbacks();
    if (state.pending.length === 0) break;
    let count = 0;
    const batch: Pending[] = [];
    while (
      state.pending.length > 0 &&
      (batch.length === 0 || count + state.pending[0]!.events.length <= maxEventsPerStatement)
    ) {
      const next = state.pending.shift()!;
      if (next.after?.hasFailed) {
        answer(next, afterFailure(next));
        continue;
      }
      count += next.events.length;
      batch.push(next);
    }
    if (batch.length === 0) continue;
    try {
      const results = await appendStatement(pool, batch, channel);
      for (const [i, request] of batch.entries()) answer(request, settled(request, results[i] ?? []));
    } catch {
      // One bad request (say, a duplicate idempotency key racing in from another process)
      // must not fail the others: retry each alone, and let each answer for itself.
      for (const request of batch) {
        if (request.after?.hasFailed) {
          answer(request, afterFailure(request));
          continue;
        }
        answer(
          request,
          await appendStatement(pool, [request], channel).then(
            (rows) => settled(request, rows[0] ?? []),
            (error: unknown) => ({ error }),
          ),
        );
      }
    }
  }
  state.isFlushing = false;
}

/** Anything that runs a query: the pool, or one client inside a transaction. */
export type Queryable = Pick<pg.Pool, "query"> | pg.PoolClient;

/** The append statement for some requests, on any connection (inside a caller's transaction too). */
export async function appendStatement(
  db: Queryable,
  requests: AppendRequest[],
  channel: string,
): Promise<SessionEvent[][]> {
  const rows = await runStatement(db, requests, channel);
  const recorded = new Set(rows[0] ? parseTextArray(rows[0].recorded) : []);
  for (const { step } of requests) if (step) step.stored = recorded.has(`${step.turnId}\t${step.name}`);
  const byOrd = new Map(rows.map((row) => [Number(row.ord), row]));
  let ord = 1;
  return requests.map((request) =>
    request.events.flatMap(() => {
      const row = byOrd.get(ord++);
      if (!row) return [];
      const { ord: _, recorded: __, ...rest } = row;
      return [toEnvelope(rest)];
    }),
  );
}

// Every row repeats the statement's recorded steps (a text[]): left as text and parsed once,
// from the first row, instead of once per event.
const textArrayOid = 1009;
const parseTextArray = pg.types.getTypeParser(textArrayOid as never) as (text: string) => string[];
const rowTypes = {
  getTypeParser: (oid: number) =>
    oid === textArrayOid ? (text: string) => text : pg.types.getTypeParser(oid as never),
} as pg.CustomTypesConfig;

async function runStatement(
  db: Queryable,
  batch: AppendRequest[],
  channel: string,
): Promise<(EventRow & { ord: string; recorded: string })[]> {
  const flat = batch.flatMap((request) =>
    request.events.map((event) => ({
      ...event,
      sessionId: request.sessionId,
      at: request.at,
      endsTurn: request.endsTurn === true,
      // A run's events go in only while it holds the turn, like its step's journal row.
      fenceEpoch: request.unfenced ? null : (request.step?.epoch ?? null),
    })),
  );
  const steps = batch.flatMap((request) =>
    request.step ? [{ ...request.step, endsTurn: request.endsTurn === true }] : [],
  );
  const { rows } = await (db as pg.Pool).query<EventRow & { ord: string; recorded: string }>({
    name: "agentfold-append-events",
    text: groupAppendSql,
    types: rowTypes,
    values: [
      flat.map((e) => e.sessionId),
      flat.map((e) => e.type),
      flat.map((e) => e.turnId ?? null),
      flat.map((e) => storableJson(e.data ?? null)),
      flat.map((e) => e.idempotencyKey ?? null),
      flat.map((e) => e.at.toISOString()),
      channel,
      steps.map((s) => s.turnId),
      steps.map((s) => s.name),
      steps.map((s) => s.sessionId),
      steps.map((s) => s.result),
      steps.map((s) => s.epoch),
      maxNotifyBytes,
      flat.map((e) => e.endsTurn),
      steps.map((s) => s.endsTurn),
      flat.map((e) => e.fenceEpoch),
    ],
  });
  return rows;
}

/** A request's events; none at all means its session does not exist (or, for a request that
 * ends its turn, that it could not; for a step's, that its run no longer holds the turn). */
function settled(request: AppendRequest, events: SessionEvent[]): { events: SessionEvent[] } | { error: unknown } {
  if (events.length === 0 && !request.endsTurn && request.step?.stored !== false)
    return { error: new AppError("not_found", `no session ${request.sessionId}`) };
  return { events };
}

// The statement lives in the database as a function (migration append_events_function), planned
// once per connection: $1 session ids, $2 types, $3 turn ids, $4 data (JSON text), $5 idempotency
// keys, $6 times (ISO), $7 channel; $8–$12 the journal rows of steps these events end (turn ids,
// names, session ids, results, the epoch of the run recording them); $13 the largest notification;
// $14 and $15 flag the events and journal rows that end their turn (AppendRequest.endsTurn); $16
// the epoch each event is fenced by (its step's, null for none: migration fence_events_by_epoch).
const groupAppendSql = `
  SELECT session_id AS "sessionId", index, type, turn_id AS "turnId", at, data, ord, recorded
  FROM append_session_events($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`;
