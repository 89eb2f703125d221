// POST   /<slug>/v1/session/:id — follow-up on a chat session (rotates the continuation token)
// GET    /<slug>/v1/session/:id — the session's state
// DELETE /<slug>/v1/session/:id — delete the session and its log
import { z } from "zod";
import { findPendingApprovals } from "@/server/approvals/find-pending-approvals";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db, durableRuntime } from "@/server/http/platform";
import { deleteSession } from "@/server/sessions/delete-session";
import { describeSession } from "@/server/sessions/describe-session";
import { followUpSession } from "@/server/sessions/follow-up-session";
import { getReadableSession } from "@/server/sessions/get-readable-session";
import { followUpBodySchema, sessionIdSchema } from "@/server/sessions/schema";

export const dynamic = "force-dynamic";
const params = z.object({ slug: z.string(), id: sessionIdSchema });

export const POST = defineAgentRoute({
  action: "sessions:write",
  params,
  body: followUpBodySchema,
  handler: async ({ caller, agent, params, body }) =>
    followUpSession({
      db: db(),
      runtime: durableRuntime(),
      agentId: agent.id,
      sessionId: params.id,
      principal: caller.principal,
      body,
    }),
});

export const GET = defineAgentRoute({
  action: "sessions:read",
  params,
  handler: async ({ caller, agent, params }) => {
    const session = await getReadableSession({ db: db(), agent, sessionId: params.id, caller });
    return {
      ok: true,
      session: describeSession(session),
      pendingApprovals: await findPendingApprovals(db(), session.id),
    };
  },
});

export const DELETE = defineAgentRoute({
  action: "sessions:write",
  params,
  handler: async ({ caller, agent, params }) =>
    deleteSession({
      db: db(),
      runtime: durableRuntime(),
      agentId: agent.id,
      sessionId: params.id,
      principal: caller.principal,
    }),
});
