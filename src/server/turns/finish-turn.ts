// Ends a turn in one statement or one transaction: the final message, turn.completed /
// turn.failed, and then what the session does next. A task session ends (session.completed /
// session.failed). A chat session whose coalesced sends piled up during the turn drains them into
// one follow-up turn (its `message.received` lists their deliveryIds in arrival order); otherwise
// it waits. A turn that a newer send preempted only records its own end: the session already
// belongs to the next turn. A cancelled turn never drains (its invocation is being cancelled):
// see startLeftoverTurn.
import type { PrismaClient } from "@prisma/client";
import { resolved } from "@/server/approvals/gate-approvals";
import { pgTransaction } from "@/server/db";
import type { TurnRequest } from "@/server/durable/runtime";
import { appendEvents, appendEventsInTransaction, type NewEvent } from "@/server/events/append-events";
import { newTurnId } from "@/server/sessions/session-urls";
import type { Seal, TurnEnd } from "./engine";
import { claimIntoFollowUp, claimPendingDeliveries } from "./pending-deliveries";

export async function finishTurn(options: {
  db: PrismaClient;
  sessionId: string;
  turnId: string;
  mode: "chat" | "task";
  /** Where drained sends' workspaceFiles go; not needed to finish a cancelled turn. */
  workspaceDir?: string;
  end: TurnEnd;
  /** The finish step's journal record, committed in the same transaction. */
  seal?: Seal<TurnRequest | undefined>;
  /** Waits for the turn's appends that steps did not wait for (step-journal.ts), before the
   * transaction: it does not go through group commit, which keeps a session's appends in order
   * (and the one-statement end after them, written only if they were). */
  settled?: () => Promise<void>;
  /** Without a seal: the epoch of the run ending the turn, which records the end only while it is
   * still the session's (a newer run of the turn records its own). */
  epoch?: number;
}): Promise<TurnRequest | undefined> {
  const { db, sessionId, turnId, mode, end } = options;
  // The common end of a chat turn, which still owns its session with nothing waiting for it, is
  // one statement: its last events, the session set waiting and the step's record together
  // (AppendRequest.endsTurn). Anything else — or anyone changing the session meanwhile — takes
  // the transaction below.
  // The step's record for an end that drains nothing; its epoch is the finishing run's: a run a
  // newer one superseded writes nothing, and its journal then stops it. Without a journal, no check.
  const record = options.seal?.(undefined);
  if (mode === "chat" && end.kind !== "cancelled" && (record || options.epoch === undefined)) {
    const stored = await appendEvents({
      db,
      sessionId,
      events: [...endEvents(turnId, end), waitingEvent(turnId)],
      step: record,
      endsTurn: true,
    });
    if (stored.length > 0) return undefined;
  }
  const drainKey = `${turnId}:drain`;
  const epoch = record?.epoch ?? options.epoch ?? null;
  // A transaction bypasses group commit: everything appended before goes first.
  await options.settled?.();
  return pgTransaction(db, async (client) => {
    // One statement: lock the session row, look for this turn's end (already recorded when this
    // step runs again after a crash that followed its commit), and end the calls still parked
    // for approval (stop, preempt), which end with the turn, resolved as cancelled.
    const finishedKey = `${turnId}:finished`;
    const { rows } = await client.query<{
      runningTurnId: string | null;
      isCurrent: boolean;
      done: { key: string; turnId: string; text: string }[];
      abandoned: string[];
    }>({
      name: "agentfold-finish-turn-start",
      text: `WITH locked AS (
               SELECT "runningTurnId", $5::int IS NULL OR "turnEpoch" = $5 AS "isCurrent" FROM sessions WHERE id = $1 FOR UPDATE
             ), done AS (
               SELECT "idempotencyKey" AS key, "turnId", data->>'text' AS text FROM session_events WHERE "sessionId" = $1 AND "idempotencyKey" = ANY($3)
             ), abandoned AS (
               UPDATE approvals SET status = 'cancelled', reason = 'cancelled', "decidedAt" = now() AT TIME ZONE 'UTC'
                 WHERE "turnId" = $2 AND status = 'pending' AND NOT EXISTS (SELECT 1 FROM done WHERE key = $4)
                   AND (SELECT "isCurrent" FROM locked)
                 RETURNING "callId"
             )
             SELECT (SELECT "runningTurnId" FROM locked) AS "runningTurnId", coalesce((SELECT "isCurrent" FROM locked), false) AS "isCurrent",
                    (SELECT coalesce(json_agg(json_build_object('key', key, 'turnId', "turnId", 'text', text)), '[]'::json) FROM done) AS done,
                    (SELECT coalesce(array_agg("callId"), '{}') FROM abandoned) AS abandoned`,
      values: [sessionId, turnId, [finishedKey, drainKey], finishedKey, epoch],
    });
    const { runningTurnId, isCurrent, done, abandoned } = rows[0]!;
    if (!isCurrent) return undefined;
    if (done.some((row) => row.key === finishedKey)) {
      const drained = done.find((row) => row.key === drainKey);
      const next = drained ? { sessionId, turnId: drained.turnId, message: drained.text } : undefined;
      // No append carries the record here: sealed anew (a declined one-statement end left its
      // seal, unwritten), the journal writes it itself.
      options.seal?.(next);
      return next;
    }
    const events: NewEvent[] = abandoned.map((callId) => resolved(turnId, callId, "denied", undefined, "cancelled"));
    events.push(...endEvents(turnId, end));
    let next: TurnRequest | undefined;
    if (mode === "task") {
      events.push(
        end.kind === "completed"
          ? {
              type: "session.completed",
              turnId,
              data: end.result !== undefined && end.result !== null ? { result: end.result } : {},
              idempotencyKey: `${turnId}:session-end`,
            }
          : {
              type: "session.failed",
              turnId,
              data: { message: end.kind === "cancelled" ? "turn interrupted" : end.message },
              idempotencyKey: `${turnId}:session-end`,
            },
      );
      await client.query(
        `UPDATE sessions SET status = $2::"SessionStatus", "runningTurnId" = NULL, "runningInvocationId" = NULL WHERE id = $1`,
        [sessionId, end.kind === "completed" ? "completed" : "failed"],
      );
    } else if (runningTurnId === turnId) {
      // What waits drains into one follow-up turn; otherwise the session waits. A cancelled turn
      // never drains (see startLeftoverTurn).
      const nextTurnId = newTurnId();
      const drains = end.kind !== "cancelled" && options.workspaceDir !== undefined;
      const pending = drains ? await claimIntoFollowUp(client, sessionId, options.workspaceDir!, nextTurnId) : [];
      if (!drains)
        await client.query(
          `UPDATE sessions SET status = 'waiting', "runningTurnId" = NULL, "runningInvocationId" = NULL WHERE id = $1`,
          [sessionId],
        );
      if (pending.length > 0) {
        next = { sessionId, turnId: nextTurnId, message: pending.map((p) => p.text).join("\n\n") };
        events.push({
          type: "message.received",
          turnId: next.turnId,
          data: { text: next.message, deliveryIds: pending.map((p) => p.deliveryId) },
          idempotencyKey: drainKey,
        });
      } else {
        events.push(waitingEvent(turnId));
      }
    }
    await appendEventsInTransaction({ client, sessionId, events, step: options.seal?.(next) });
    return next;
  });
}

/** The turn's final message (if it has one) and its end. */
function endEvents(turnId: string, end: TurnEnd): NewEvent[] {
  const text = end.kind === "cancelled" ? undefined : end.text;
  return [
    ...(text !== undefined
      ? [{ type: "message.completed" as const, turnId, data: { text }, idempotencyKey: `${turnId}:message` }]
      : []),
    end.kind === "completed"
      ? {
          type: "turn.completed",
          turnId,
          data: {
            usage: end.usage,
            ...(end.cost ? { cost: end.cost } : {}),
            ...(end.result !== undefined && end.result !== null ? { result: end.result } : {}),
          },
          idempotencyKey: `${turnId}:finished`,
        }
      : {
          type: "turn.failed",
          turnId,
          data:
            end.kind === "cancelled"
              ? { message: "turn interrupted", status: "cancelled", code: "cancelled" }
              : { message: end.message, status: "error", code: end.code },
          idempotencyKey: `${turnId}:finished`,
        },
  ];
}

function waitingEvent(turnId: string): NewEvent {
  return { type: "session.waiting", turnId, data: {}, idempotencyKey: `${turnId}:waiting` };
}

/**
 * Sends that were coalesced while a cancelled turn wound down are not lost: when the session is
 * free and some wait, they become one new turn (to run in a new invocation, not the cancelled one).
 */
export async function startLeftoverTurn(options: {
  db: PrismaClient;
  sessionId: string;
  workspaceDir: string;
  /** The step's journal record, committed with the new turn (the claim cannot be taken twice). */
  seal?: Seal<TurnRequest | undefined>;
}): Promise<TurnRequest | undefined> {
  const { db, sessionId } = options;
  return pgTransaction(db, async (client) => {
    const { rows } = await client.query<{ runningTurnId: string | null; mode: string }>(
      `SELECT "runningTurnId", mode FROM sessions WHERE id = $1 FOR UPDATE`,
      [sessionId],
    );
    if (!rows[0] || rows[0].runningTurnId || rows[0].mode !== "chat") return undefined;
    const pending = await claimPendingDeliveries(client, sessionId, options.workspaceDir);
    if (pending.length === 0) return undefined;
    const next: TurnRequest = { sessionId, turnId: newTurnId(), message: pending.map((p) => p.text).join("\n\n") };
    await client.query(
      `UPDATE sessions SET status = 'running', "runningTurnId" = $2, "runningInvocationId" = NULL WHERE id = $1`,
      [sessionId, next.turnId],
    );
    await appendEventsInTransaction({
      client,
      sessionId,
      events: [
        {
          type: "message.received",
          turnId: next.turnId,
          data: { text: next.message, deliveryIds: pending.map((p) => p.deliveryId) },
        },
      ],
      step: options.seal?.(next),
    });
    return next;
  });
}
