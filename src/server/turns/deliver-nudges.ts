// Coalesced sends that arrived during the turn, steered in at a tool boundary (docs/turns.md
// "Admission and stop"). A run of the turn after a crash also gets back those its cut-off attempt
// already took.
import type { ModelMessage } from "ai";
import { pgTransaction, poolOf } from "@/server/db";
import { appendEventsInTransaction } from "@/server/events/append-events";
import type { TurnDeps, TurnSetup } from "./engine";
import { claimPendingDeliveries } from "./pending-deliveries";

export async function deliverNudges(
  {
    db,
    earlier,
    setup,
    turnId,
    settled,
    mayHavePending,
  }: Pick<TurnDeps, "db" | "earlier" | "settled" | "mayHavePending"> & { setup: TurnSetup; turnId: string },
  step: number,
  stored: () => Promise<void>,
): Promise<ModelMessage[]> {
  const sessionId = setup.session.id;
  const keyPrefix = `${turnId}:nudge:${step}:`;
  // Nudges an earlier attempt took are always given back: an attempt cut off before its
  // step.started was stored does not count as one, yet its nudges are in the log. Nearly always
  // nothing waits: one cheap read instead of a locking transaction, and none at all when the run
  // knows no send was queued. A send that lands just after is steered in at the next boundary or
  // drained when the turn ends.
  const [taken, { rows: waiting }] = await Promise.all([
    earlier.nudges(keyPrefix),
    mayHavePending?.() === false
      ? { rows: [] }
      : poolOf(db).query({
          name: "agentfold-pending-exists",
          text: `SELECT 1 FROM pending_deliveries WHERE "sessionId" = $1 LIMIT 1`,
          values: [sessionId],
        }),
  ]);
  // The step's leading events (the previous batch's close) go before any nudge in the log, and
  // sends are claimed only by a run whose decisions so far are recorded.
  if (waiting.length > 0) await Promise.all([stored(), settled?.()]);
  const claimed =
    waiting.length === 0
      ? []
      : await pgTransaction(db, async (client) => {
          const { rows } = await client.query<{ runningTurnId: string | null }>(
            `SELECT "runningTurnId" FROM sessions WHERE id = $1 FOR UPDATE`,
            [sessionId],
          );
          if (rows[0]?.runningTurnId !== turnId) return [];
          const taken = await claimPendingDeliveries(client, sessionId, setup.workspaceDir);
          await appendEventsInTransaction({
            client,
            sessionId,
            events: taken.map((delivery) => ({
              type: "nudge.delivered",
              turnId,
              data: { deliveryId: delivery.deliveryId, text: delivery.text },
              idempotencyKey: `${keyPrefix}${delivery.deliveryId}`,
            })),
          });
          return taken.map((delivery) => delivery.text);
        });
  const texts = [...taken, ...claimed];
  return texts.length === 0 ? [] : [{ role: "user", content: texts.join("\n\n") }];
}
