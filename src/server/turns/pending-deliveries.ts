// Coalesced sends wait in pending_deliveries while a turn runs. A claim takes them all, in
// arrival order, inside the caller's transaction (which records them in the event log), and
// writes their workspaceFiles into the session workspace at once, so nothing about them lives
// only in memory between the claim and the turn that reads them.
import type pg from "pg";
import { writeWorkspaceFiles } from "@/agents/runtime/prepare-workspace";
import { pendingDeliveryChannel } from "@/server/channels";

export type Claimed = { deliveryId: string; text: string };

/** Queues a coalesced send for the session's running turn, inside the caller's transaction, and
 * announces it when that commits. */
export async function queuePendingDelivery(
  client: pg.PoolClient,
  delivery: { sessionId: string; deliveryId: string; text: string; workspaceFiles?: Record<string, string> },
): Promise<void> {
  await client.query({
    name: "agentfold-queue-pending-delivery",
    text: `WITH queued AS (
             INSERT INTO pending_deliveries ("sessionId", "deliveryId", text, "workspaceFiles") VALUES ($1, $2, $3, $4)
           )
           SELECT pg_notify($5, $1)`,
    values: [
      delivery.sessionId,
      delivery.deliveryId,
      delivery.text,
      delivery.workspaceFiles ? JSON.stringify(delivery.workspaceFiles) : null,
      pendingDeliveryChannel.name,
    ],
  });
}

type PendingRow = { id: string; deliveryId: string; text: string; workspaceFiles: Record<string, string> | null };

export async function claimPendingDeliveries(
  client: pg.PoolClient,
  sessionId: string,
  workspaceDir: string,
): Promise<Claimed[]> {
  const { rows } = await client.query<PendingRow>(
    `DELETE FROM pending_deliveries WHERE "sessionId" = $1 RETURNING id, "deliveryId", text, "workspaceFiles"`,
    [sessionId],
  );
  return taken(rows, workspaceDir);
}

/**
 * At the end of a chat turn that still owns its session: claims what waits and hands the session
 * to the follow-up turn `nextTurnId` — or, with nothing waiting, sets it waiting. One statement.
 */
export async function claimIntoFollowUp(
  client: pg.PoolClient,
  sessionId: string,
  workspaceDir: string,
  nextTurnId: string,
): Promise<Claimed[]> {
  const { rows } = await client.query<PendingRow>({
    name: "agentfold-claim-into-follow-up",
    text: `WITH claimed AS (
             DELETE FROM pending_deliveries WHERE "sessionId" = $1 RETURNING id, "deliveryId", text, "workspaceFiles"
           ), handed AS (
             UPDATE sessions SET
               status = CASE WHEN EXISTS (SELECT 1 FROM claimed) THEN status ELSE 'waiting' END,
               "runningTurnId" = CASE WHEN EXISTS (SELECT 1 FROM claimed) THEN $2 END,
               "runningInvocationId" = CASE WHEN EXISTS (SELECT 1 FROM claimed) THEN "runningInvocationId" END
             WHERE id = $1
           )
           SELECT * FROM claimed`,
    values: [sessionId, nextTurnId],
  });
  return taken(rows, workspaceDir);
}

function taken(rows: PendingRow[], workspaceDir: string): Claimed[] {
  rows.sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
  for (const row of rows) if (row.workspaceFiles) writeWorkspaceFiles(workspaceDir, row.workspaceFiles);
  return rows.map((row) => ({ deliveryId: row.deliveryId, text: row.text }));
}
