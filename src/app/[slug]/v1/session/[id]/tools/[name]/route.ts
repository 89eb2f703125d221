// POST /<slug>/v1/session/:id/tools/:name — call a tool against a session (409 session_busy for a write during a turn)
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db, durableRuntime } from "@/server/http/platform";
import { sessionIdSchema } from "@/server/sessions/schema";
import { callTool } from "@/server/tools/call-tool";
import { directCallBodySchema } from "@/server/tools/schema";
import { pathNameSchema } from "@/server/validation/schema";

export const dynamic = "force-dynamic";

export const POST = defineAgentRoute({
  action: "tools:call",
  params: z.object({ slug: z.string(), id: sessionIdSchema, name: pathNameSchema }),
  body: directCallBodySchema,
  handler: async ({ caller, agent, params, body }) =>
    callTool({ db: db(), runtime: durableRuntime(), agent, caller, toolName: params.name, body, sessionId: params.id }),
});
