// MCP `check` (and a peer agent's `<connection>__check`): how the latest turn of the caller's own
// session stands — running, parked on approvals, or how it ended — with its reply and the calls
// waiting for a decision. Owner only, as every session route that acts for a client.
import type { PrismaClient } from "@prisma/client";
import { findPendingApprovals } from "@/server/approvals/find-pending-approvals";
import type { Principal } from "@/server/auth/principal";
import { poolOf } from "@/server/db";
import { getOwnedSession } from "@/server/sessions/get-owned-session";
import type { CheckResult } from "./ask-agent-schema";

type EndRow = { type: string; text: string | null; message: string | null; status: string | null };

export async function checkAgentSession(
  deps: { db: PrismaClient },
  options: { agent: { id: string }; principal: Principal; sessionId: string },
): Promise<CheckResult> {
  const { db } = deps;
  const { agent, principal, sessionId } = options;
  await getOwnedSession({ db, agentId: agent.id, sessionId, principal });
  // The latest turn is the one of the latest message.received; its final message and end follow it.
  const { rows } = await poolOf(db).query<EndRow>({
    name: "agentfold-mcp-check",
    text: `WITH last AS (SELECT index, "turnId" FROM session_events WHERE "sessionId" = $1 AND type = 'message.received'
                         ORDER BY index DESC LIMIT 1)
           SELECT e.type, e.data->>'text' AS text, e.data->>'message' AS message, e.data->>'status' AS status
           FROM last JOIN session_events e ON e."sessionId" = $1 AND e.index > last.index AND e."turnId" = last."turnId"
           WHERE e.type IN ('message.completed', 'turn.completed', 'turn.failed') ORDER BY e.index`,
    values: [sessionId],
  });
  const reply = rows.findLast((row) => row.type === "message.completed")?.text ?? null;
  const end = rows.find((row) => row.type !== "message.completed");
  const pendingApprovals = await findPendingApprovals(db, sessionId);
  const base = { sessionId, reply, pendingApprovals };
  if (end?.type === "turn.completed") return { ...base, status: "completed" };
  if (end) return { ...base, status: end.status === "cancelled" ? "cancelled" : "failed", error: end.message ?? "" };
  return { ...base, status: pendingApprovals.length > 0 ? "waiting_approval" : "running" };
}
