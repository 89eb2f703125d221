// POST /<slug>/v1/dev/schedules/:name — fire a schedule now (hand dispatch); answers its task session
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { AppError } from "@/server/errors";
import { durableRuntime } from "@/server/http/platform";
import { pathNameSchema } from "@/server/validation/schema";

export const dynamic = "force-dynamic";

export const POST = defineAgentRoute({
  action: "agents:deploy",
  params: z.object({ slug: z.string(), name: pathNameSchema }),
  handler: async ({ agent, params }) => {
    const fired = await durableRuntime().fireSchedule(agent.id, params.name);
    if (!fired.ok) throw AppError.fromBody(fired);
    return fired;
  },
});
