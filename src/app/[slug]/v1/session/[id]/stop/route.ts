// POST /<slug>/v1/session/:id/stop — interrupt the running turn without sending a message
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db, durableRuntime } from "@/server/http/platform";
import { sessionIdSchema } from "@/server/sessions/schema";
import { stopSession } from "@/server/sessions/stop-session";

export const dynamic = "force-dynamic";

export const POST = defineAgentRoute({
  action: "sessions:write",
  params: z.object({ slug: z.string(), id: sessionIdSchema }),
  handler: async ({ caller, agent, params }) =>
    stopSession({
      db: db(),
      runtime: durableRuntime(),
      agentId: agent.id,
      sessionId: params.id,
      principal: caller.principal,
    }),
});
