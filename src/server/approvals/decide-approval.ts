// POST /<slug>/v1/session/:id/approvals/:callId: a human decision on a parked call. Who may
// decide: the session's owner (with sessions:write), and callers of the agent's team allowed
// `approvals:write` on it.
// The decision and its `action.approval_resolved` commit together, first come first served; then
// the waiting turn's awakeable is resolved. If the engine cannot be reached the decision still
// stands, and a later call for the same approval delivers it (answering 409 all the same).
import type { PrismaClient } from "@prisma/client";
import { isOwner, type Caller } from "@/server/auth/principal";
import { pgTransaction, poolOf } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import { appendEventsInTransaction } from "@/server/events/append-events";
import { AppError } from "@/server/errors";
import { resolved } from "./gate-approvals";
import type { ApprovalDecided, DecideApprovalBody } from "./schema";

type ApprovalRow = { turnId: string; status: string; awakeableId: string; deliveredAt: Date | null };

export async function decideApproval(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agent: { id: string; slug: string; teamId: string };
  sessionId: string;
  callId: string;
  caller: Caller;
  body: DecideApprovalBody;
}): Promise<ApprovalDecided> {
  const { db, runtime, agent, sessionId, callId, caller, body } = options;
  const session = await db.session.findFirst({
    where: { id: sessionId, agentId: agent.id },
    select: { ownerKind: true, ownerId: true },
  });
  if (!session) throw new AppError("not_found", `no session ${sessionId}`);
  // Deciding runs (or refuses) a tool, so the owner needs write rights too (a member demoted to
  // viewer keeps reading their sessions but decides nothing).
  const mayAsOwner = isOwner(caller.principal, session) && caller.can("sessions:write", agent.slug, agent.teamId);
  if (!mayAsOwner && !caller.can("approvals:write", agent.slug, agent.teamId)) {
    throw new AppError("forbidden", "only the session's owner or a teammate allowed approvals:write may decide");
  }
  const decision = body.decision === "approve" ? "approved" : "denied";
  const outcome = await pgTransaction(db, async (client) => {
    const { rows } = await client.query<ApprovalRow>(
      `SELECT "turnId", status, "awakeableId", "deliveredAt" FROM approvals WHERE "sessionId" = $1 AND "callId" = $2 FOR UPDATE`,
      [sessionId, callId],
    );
    const row = rows[0];
    if (!row) throw new AppError("not_found", `no parked call ${callId} in session ${sessionId}`);
    if (row.status !== "pending") return { row, isFirst: false };
    await client.query(
      `UPDATE approvals SET status = $3, "decidedBy" = $4, reason = $5, "decidedAt" = now() AT TIME ZONE 'UTC' WHERE "sessionId" = $1 AND "callId" = $2`,
      [sessionId, callId, decision, JSON.stringify(caller.principal), body.reason ?? null],
    );
    await appendEventsInTransaction({
      client,
      sessionId,
      events: [resolved(row.turnId, callId, decision, caller.principal, body.reason)],
    });
    return { row, isFirst: true };
  });
  const delivered =
    outcome.row.deliveredAt !== null || (await deliver(db, runtime, sessionId, callId, outcome.row.awakeableId));
  if (!outcome.isFirst)
    throw new AppError("already_resolved", `call ${callId} was already decided (${outcome.row.status})`);
  return { ok: true, sessionId, callId, decision, delivered };
}

/** Wakes the waiting turn; the decision itself is read from the approvals row. */
async function deliver(
  db: PrismaClient,
  runtime: DurableRuntime,
  sessionId: string,
  callId: string,
  awakeableId: string,
): Promise<boolean> {
  try {
    await runtime.resolveAwakeable(awakeableId, { callId });
  } catch {
    return false;
  }
  await poolOf(db).query(
    `UPDATE approvals SET "deliveredAt" = now() AT TIME ZONE 'UTC' WHERE "sessionId" = $1 AND "callId" = $2`,
    [sessionId, callId],
  );
  return true;
}
