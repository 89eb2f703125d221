// The calls of a session still waiting for a decision, oldest first: what GET …/session/:id
// reports, so a client that reloads finds its Approve / Deny buttons again.
import type { PrismaClient } from "@prisma/client";

export type PendingApproval = {
  callId: string;
  toolName: string;
  args: unknown;
  requestedAt: string;
  expiresAt: string;
};

export async function findPendingApprovals(db: PrismaClient, sessionId: string): Promise<PendingApproval[]> {
  const rows = await db.approval.findMany({
    where: { sessionId, status: "pending" },
    orderBy: { createdAt: "asc" },
    select: { callId: true, toolName: true, args: true, createdAt: true, expiresAt: true },
  });
  return rows.map((row) => ({
    callId: row.callId,
    toolName: row.toolName,
    args: row.args,
    requestedAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  }));
}
