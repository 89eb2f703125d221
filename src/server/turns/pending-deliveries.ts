// Coalesced sends wait in pending_deliveries while a turn runs. A claim takes them all, in
// arrival order, inside the caller's transaction (which records them in the event log), and
// writes their workspaceFiles into the session workspace at once, so nothing about them lives
// only in memory between the claim and the turn that reads them.
import type pg from "pg";
import { writeWorkspaceFiles } from "@/agents/runtime/prepare-workspace";

export type Claimed = { deliveryId: string; text: string };

export async function claimPendingDeliveries(client: pg.PoolClient, sessionId: string, workspaceDir: string): Promise<Claimed[]> {
  const { rows } = await client.query<{ id: string; deliveryId: string; text: string; workspaceFiles: Record<string, string> | null }>(
    `DELETE FROM pending_deliveries WHERE "sessionId" = $1 RETURNING id, "deliveryId", text, "workspaceFiles"`,
    [sessionId],
  );
  rows.sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
  for (const row of rows) if (row.workspaceFiles) writeWorkspaceFiles(workspaceDir, row.workspaceFiles);
  return rows.map((row) => ({ deliveryId: row.deliveryId, text: row.text }));
}
