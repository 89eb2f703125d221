// POST /<slug>/v1/session/:id: a follow-up. The continuation token must be the latest one; it is
// rotated in the same transaction that records the message, so two clients racing with the same
// token cannot both get in. Admission (docs/turns.md, "Admission and stop") when a turn is running:
// - preempt (the default): the running turn is aborted (turn.failed, cancelled) and this message
//   runs next;
// - coalesce: the message waits in pending_deliveries; the running turn steers it in at its next
//   tool boundary (nudge.delivered) or drains it into one follow-up turn when it ends.
// The session row lock orders this against the running turn's own claim of pending sends.
import type { PrismaClient } from "@prisma/client";
import type { Principal } from "@/server/auth/principal";
import type { DurableRuntime } from "@/server/durable/runtime";
import { pgTransaction } from "@/server/db";
import { appendEventsInTransaction } from "@/server/events/append-events";
import { AppError } from "@/server/errors";
import { interruptTurn } from "@/server/turns/interrupt-turn";
import { queuePendingDelivery } from "@/server/turns/pending-deliveries";
import { assertWorkspacePaths } from "./assert-workspace-paths";
import { hashContinuationToken, newContinuationToken } from "./continuation-token";
import { getOwnedSession } from "./get-owned-session";
import { failUnqueuedTurn, queueTurn, sendRecordedTurn, withRetries } from "./queue-turn";
import type { FollowUpBody } from "./schema";
import { newDeliveryId, newTurnId } from "./session-urls";

export type FollowUpAccepted = {
  ok: true;
  sessionId: string;
  continuationToken: string;
  deliveryId: string;
  /** "started": a turn runs this message now (after preempting one, if `preempted`); "queued": coalesced. */
  admission: "started" | "queued";
  preempted?: true;
};

export async function followUpSession(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agentId: string;
  sessionId: string;
  principal: Principal;
  body: FollowUpBody;
  /** The caller named the session by a channel's conversation key, not by its latest token. */
  isByConversationKey?: boolean;
}): Promise<FollowUpAccepted> {
  const { db, runtime, agentId, sessionId, principal, body, isByConversationKey = false } = options;
  const session = await getOwnedSession({ db, agentId, sessionId, principal });
  if (session.mode === "task") throw new AppError("task_session", "task sessions do not take follow-ups");
  assertWorkspacePaths(body.workspaceFiles);
  const turnId = newTurnId();
  const deliveryId = body.deliveryId ?? newDeliveryId();
  const next = newContinuationToken();
  type Running = { runningTurnId: string | null; runningInvocationId: string | null };
  const admitted = await pgTransaction(db, async (client) => {
    const { rows } = await client.query<Running & { isCurrent: boolean }>(
      `SELECT "runningTurnId", "runningInvocationId", "continuationTokenHash" = $2 AS "isCurrent" FROM sessions WHERE id = $1 FOR UPDATE`,
      [sessionId, hashContinuationToken(body.continuationToken)],
    );
    const row = rows[0];
    if (!row || (!row.isCurrent && !isByConversationKey))
      throw new AppError("stale_continuation_token", "this continuation token was already used; use the latest one");
    if (row.runningTurnId && body.admission === "coalesce") {
      await client.query(`UPDATE sessions SET "continuationTokenHash" = $2 WHERE id = $1`, [sessionId, next.hash]);
      await queuePendingDelivery(client, {
        sessionId,
        deliveryId,
        text: body.message,
        workspaceFiles: body.workspaceFiles,
      });
      return { queued: true as const };
    }
    // The web queues this turn itself. Should this process die between this commit and the send,
    // the workers' sweep sends it from the log 2 s on ("named for nobody", eagerWorker 0: see
    // src/server/worker/eager-turns.ts); the send is idempotent per turn, so a sweep racing the
    // web's own send costs nothing. Not for a preempting send (the old turn must get its
    // invocation first, or the two would run side by side) nor one with workspace files (the log
    // does not hold them): those are the web's alone, as before.
    const isSweepable = !row.runningTurnId && !body.workspaceFiles;
    await client.query(
      `UPDATE sessions SET "continuationTokenHash" = $2, status = 'running', "runningTurnId" = $3,
         "eagerWorker" = CASE WHEN $4::boolean THEN 0 ELSE NULL END WHERE id = $1`,
      [sessionId, next.hash, turnId, isSweepable],
    );
    await appendEventsInTransaction({
      client,
      sessionId,
      events: [{ type: "message.received", turnId, data: { text: body.message, deliveryIds: [deliveryId] } }],
    });
    return {
      queued: false as const,
      preempt: row.runningTurnId ? { turnId: row.runningTurnId, invocationId: row.runningInvocationId } : undefined,
    };
  });
  const accepted = { ok: true as const, sessionId, continuationToken: next.token, deliveryId };
  if (admitted.queued) return { ...accepted, admission: "queued" };
  // The new turn runs when the old one has settled: Restate runs a session's invocations one at a
  // time. A running turn without one (a first turn runs eagerly) is given one first, to queue
  // behind; that one is not cancelled: it waits for the eager run (or, should that run's worker
  // be gone, runs the turn, finds the stop and records its end), and an engine that cannot be
  // reached now still leaves the stop to the notice.
  if (admitted.preempt) {
    const { turnId: running, invocationId } = admitted.preempt;
    await interruptTurn({ db, runtime, sessionId, turnId: running, invocationId });
    if (!invocationId) {
      try {
        await withRetries(() => sendRecordedTurn({ db, runtime, sessionId, turnId: running }));
      } catch (error) {
        // Queued without it, this turn would run beside the old one: it fails instead.
        await failUnqueuedTurn({ db, sessionId, turnId, mode: "chat" }, error);
      }
    }
  }
  await queueTurn({
    db,
    runtime,
    turn: { sessionId, turnId, message: body.message, workspaceFiles: body.workspaceFiles },
    mode: "chat",
  });
  return { ...accepted, admission: "started", ...(admitted.preempt ? { preempted: true as const } : {}) };
}
