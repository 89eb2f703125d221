// A message the platform itself sends to a chat session (a reminder firing), with coalesce
// admission: an idle session starts a turn; a busy one gets it steered in or drained
// (docs/turns.md, "Admission and stop").
// No continuation token: this is not a client's follow-up. Runs in the caller's transaction.
import type pg from "pg";
import type { TurnRequest } from "@/server/durable/runtime";
import { appendEventsInTransaction } from "@/server/events/append-events";
import { queuePendingDelivery } from "@/server/turns/pending-deliveries";
import { newTurnId } from "./session-urls";

export type Delivered =
  | { kind: "started"; turn: TurnRequest }
  | { kind: "queued" }
  | { kind: "dropped"; reason: string };

export async function deliverCoalesced(
  client: pg.PoolClient,
  message: { sessionId: string; text: string; deliveryId: string },
): Promise<Delivered> {
  const { sessionId, text, deliveryId } = message;
  const { rows } = await client.query<{ runningTurnId: string | null; mode: string }>(
    `SELECT "runningTurnId", mode FROM sessions WHERE id = $1 FOR UPDATE`,
    [sessionId],
  );
  const session = rows[0];
  if (!session) return { kind: "dropped", reason: "the session is gone" };
  if (session.mode !== "chat") return { kind: "dropped", reason: "task sessions take no follow-ups" };
  if (session.runningTurnId) {
    // A queued send changes the session row too: a turn ending in one statement meanwhile sees
    // the row changed and takes the long way, which drains this send (finish-turn.ts).
    await client.query(`UPDATE sessions SET "updatedAt" = now() AT TIME ZONE 'UTC' WHERE id = $1`, [sessionId]);
    await queuePendingDelivery(client, { sessionId, deliveryId, text });
    return { kind: "queued" };
  }
  const turn: TurnRequest = { sessionId, turnId: newTurnId(), message: text };
  await client.query(
    `UPDATE sessions SET status = 'running', "runningTurnId" = $2, "runningInvocationId" = NULL WHERE id = $1`,
    [sessionId, turn.turnId],
  );
  await appendEventsInTransaction({
    client,
    sessionId,
    events: [{ type: "message.received", turnId: turn.turnId, data: { text, deliveryIds: [deliveryId] } }],
  });
  return { kind: "started", turn };
}
