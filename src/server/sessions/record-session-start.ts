// The session row, `session.started` and the first `message.received` in ONE statement: this is
// every new session's hot path, and a transaction around three statements cost four round trips.
// A single statement is atomic on its own, and inside a caller's transaction it joins that.
// The log's invariants hold as append-events.ts keeps them: the session is new, so no other
// append can race for its indexes (0 and 1, then nextIndex 2), and the NOTIFY ("<id>:1", the last
// index, as every append sends) is delivered only when the row and its events commit.
import type pg from "pg";
import type { SessionEvent } from "@/agents/sdk/events";
import { ownerOf, type Principal } from "@/server/auth/principal";
import { liveWorkersSql } from "@/server/worker/live-workers";
import type { TurnRequest } from "@/server/durable/runtime";
import { sessionEventsChannel, turnStartChannel } from "@/server/channels";
import { toValidEnvelope } from "@/server/events/envelope";
import type { Queryable } from "@/server/events/group-commit";

export type SessionStart = {
  sessionId: string;
  turnId: string;
  agentId: string;
  versionId: string;
  principal: Principal;
  channelId: string;
  mode: "chat" | "task";
  /** "eval": a session an eval's `t.send` started (docs/evals.md); its approvals are unattended. */
  purpose?: "live" | "eval";
  title?: string;
  dryRun?: boolean;
  continuationHash: string | null;
  message: string;
  deliveryId: string;
  /** Files the first turn writes into the workspace: such a turn is not announced (a sweep could
   * not send it again with them), it starts from its invocation. */
  workspaceFiles?: Record<string, string>;
  /** Announce the first turn to the workers, who run it at once and hand Restate only what they
   * cannot finish (src/server/worker/eager-turns.ts). Callers that queue it on Restate
   * themselves (schedules, receive) leave it out. */
  announce?: boolean;
};

// NOTIFY payloads must stay under 8000 bytes; a turn too big to announce starts from its
// invocation instead.
const maxAnnouncedBytes = 7900;

type FirstEvent = { type: SessionEvent["type"]; turnId: string | null; data: unknown };

/**
 * Records the start and announces the first turn to the workers (src/server/worker/eager-turns.ts).
 * Answers whether it did: a turn announced needs no invocation from the caller.
 */
export async function recordSessionStart(
  db: Queryable,
  start: SessionStart,
  clock: () => Date = () => new Date(),
): Promise<{ announced: boolean }> {
  const { sessionId, channelId, mode, title, dryRun } = start;
  const at = clock();
  const started: FirstEvent = {
    type: "session.started",
    turnId: null,
    data: {
      channelId,
      mode,
      purpose: start.purpose ?? "live",
      ...(title ? { title } : {}),
      ...(dryRun ? { dryRun: true } : {}),
    },
  };
  const received: FirstEvent = {
    type: "message.received",
    turnId: start.turnId,
    data: { text: start.message, deliveryIds: [start.deliveryId] },
  };
  // Validated before writing, as every append is: a drift from the vocabulary fails loudly here.
  for (const [index, event] of [started, received].entries()) toValidEnvelope({ sessionId, index, ...event, at });
  const owner = ownerOf(start.principal);
  const turn: TurnRequest = { sessionId, turnId: start.turnId, message: start.message };
  const payload = JSON.stringify(turn);
  const announced =
    (start.announce ?? false) && !start.workspaceFiles && Buffer.byteLength(payload) <= maxAnnouncedBytes;
  await (db as pg.Pool).query({
    name: "agentfold-record-session-start",
    text: recordSessionStartSql,
    values: [
      sessionId,
      start.agentId,
      start.versionId,
      owner.ownerKind,
      owner.ownerId,
      channelId,
      mode,
      title ?? null,
      dryRun ?? false,
      start.continuationHash,
      start.turnId,
      at.toISOString(),
      JSON.stringify(started.data),
      JSON.stringify(received.data),
      sessionEventsChannel.name,
      announced ? payload : null,
      turnStartChannel.name,
      start.purpose ?? "live",
    ],
  });
  return { announced };
}

// $1…$11 the session row, $12 the events' time (ISO), $13/$14 their data (JSON text), $15 the
// events' channel, $16 the first turn to announce on channel $17 (src/server/worker/eager-turns.ts)
// or NULL, $18 the session's purpose. session.started also gets its version's manifest.modelNotes
// as `notes`, read here rather than before: this statement is the whole hot path. An announced
// turn goes to a live worker, one of those whose liveness lock shows in pg_locks (taken only once the worker LISTENs, so it hears the
// notice): the session records its key and starts at turn epoch 1, the eager run's, and the notice
// names it. With no live worker it records 0, "heard by nobody", and epoch 0 (the sweep sends the
// turn to Restate). Timestamps are UTC in "timestamp without time zone" columns (Prisma's convention).
// Data-modifying CTEs all run whether or not the final SELECT reads them; the events' foreign key
// is checked at the end of the statement, when the session row exists.
const recordSessionStartSql = `
  WITH worker AS (
    SELECT CASE WHEN $16::text IS NULL THEN NULL ELSE coalesce((SELECT w.key FROM ${liveWorkersSql} w ORDER BY random() LIMIT 1), 0) END AS key
  ), session AS (
    INSERT INTO sessions (id, "agentId", "agentVersionId", "ownerKind", "ownerId", "channelId", mode, purpose, title, "dryRun",
       "continuationTokenHash", status, "runningTurnId", "nextIndex", "eagerWorker", "turnEpoch", "updatedAt")
    SELECT $1, $2, $3, $4, $5, $6, $7::"SessionMode", $18::"SessionPurpose", $8, $9, $10, 'running', $11, 2, worker.key, CASE WHEN worker.key > 0 THEN 1 ELSE 0 END, now() AT TIME ZONE 'UTC'
    FROM worker
    RETURNING id, "eagerWorker"
  ), notes AS (
    SELECT coalesce((SELECT jsonb_build_object('notes', v.manifest->'modelNotes') FROM "AgentVersion" v
      WHERE v.id = $3 AND jsonb_typeof(v.manifest->'modelNotes') = 'array'), '{}'::jsonb) AS data
  ), events AS (
    INSERT INTO session_events ("sessionId", index, type, "turnId", at, data)
      SELECT session.id, e.index, e.type, e.turn_id, $12::timestamptz AT TIME ZONE 'UTC',
             CASE WHEN e.index = 0 THEN e.data::jsonb || notes.data ELSE e.data::jsonb END
      FROM session, notes, (VALUES (0, 'session.started', NULL::text, $13::text), (1, 'message.received', $11::text, $14::text)) AS e(index, type, turn_id, data)
      RETURNING index
  )
  SELECT pg_notify($15, session.id || ':1'),
         CASE WHEN $16::text IS NOT NULL THEN pg_notify($17, '{"worker":' || session."eagerWorker" || ',"turn":' || $16 || '}') END
  FROM session CROSS JOIN (SELECT count(*) FROM events) AS written`;
