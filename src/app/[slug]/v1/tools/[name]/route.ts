// POST /<slug>/v1/tools/:name — call a tool directly, with no model turn
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db, durableRuntime } from "@/server/http/platform";
import { callTool } from "@/server/tools/call-tool";
import { directCallBodySchema } from "@/server/tools/schema";
import { pathNameSchema } from "@/server/validation/schema";

export const dynamic = "force-dynamic";

export const POST = defineAgentRoute({
  action: "tools:call",
  params: z.object({ slug: z.string(), name: pathNameSchema }),
  body: directCallBodySchema,
  handler: async ({ caller, agent, params, body }) =>
    callTool({ db: db(), runtime: durableRuntime(), agent, caller, toolName: params.name, body }),
});
