// POST /<slug>/v1/session/:id/approvals/:callId — approve or deny a parked tool call
import { z } from "zod";
import { callIdSchema, decideApprovalBodySchema } from "@/server/approvals/schema";
import { decideApproval } from "@/server/approvals/decide-approval";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db, durableRuntime } from "@/server/http/platform";
import { sessionIdSchema } from "@/server/sessions/schema";

export const dynamic = "force-dynamic";

export const POST = defineAgentRoute({
  // The owner decides with sessions rights, a teammate with approvals:write alone
  // (docs/api.md); decideApproval tells them apart.
  action: ["sessions:read", "approvals:write"],
  params: z.object({ slug: z.string(), id: sessionIdSchema, callId: callIdSchema }),
  body: decideApprovalBodySchema,
  handler: async ({ caller, agent, params, body }) =>
    decideApproval({
      db: db(),
      runtime: durableRuntime(),
      agent,
      sessionId: params.id,
      callId: params.callId,
      caller,
      body,
    }),
});
