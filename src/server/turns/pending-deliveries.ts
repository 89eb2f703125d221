// Coalesced sends wait in pending_deliveries while a turn runs. A claim takes them all, in
// arrival order, inside the caller's transaction (which records them in the event log), and
// writes their workspaceFiles into the session workspace at once, so nothing about them lives
// only in memory between the claim and the turn that reads them.
import type { Prisma } from "@prisma/client";
import { writeWorkspaceFiles } from "@/agents/runtime/prepare-workspace";

export type Claimed = { deliveryId: string; text: string };

export async function claimPendingDeliveries(tx: Prisma.TransactionClient, sessionId: string, workspaceDir: string): Promise<Claimed[]> {
  const rows = await tx.$queryRaw<{ id: bigint; deliveryId: string; text: string; workspaceFiles: Record<string, string> | null }[]>`
    DELETE FROM pending_deliveries WHERE "sessionId" = ${sessionId} RETURNING id, "deliveryId", text, "workspaceFiles"`;
  rows.sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const row of rows) if (row.workspaceFiles) writeWorkspaceFiles(workspaceDir, row.workspaceFiles);
  return rows.map((row) => ({ deliveryId: row.deliveryId, text: row.text }));
}
