// POST /<slug>/v1/session/:id/resume — the owner continues the session from this client (new continuation token)
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db } from "@/server/http/platform";
import { resumeSession } from "@/server/sessions/resume-session";
import { sessionIdSchema } from "@/server/sessions/schema";

export const dynamic = "force-dynamic";

export const POST = defineAgentRoute({
  action: "sessions:write",
  params: z.object({ slug: z.string(), id: sessionIdSchema }),
  handler: async ({ caller, agent, params }) =>
    resumeSession({ db: db(), agentId: agent.id, sessionId: params.id, principal: caller.principal }),
});
