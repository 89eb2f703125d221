// PATCH /<slug>/v1/schedules/:name — pause or resume a schedule ({ paused })
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db } from "@/server/http/platform";
import { setSchedulePaused } from "@/server/schedules/set-schedule-paused";
import { pathNameSchema } from "@/server/validation/schema";

export const dynamic = "force-dynamic";

export const PATCH = defineAgentRoute({
  action: "agents:deploy",
  params: z.object({ slug: z.string(), name: pathNameSchema }),
  body: z.strictObject({ paused: z.boolean() }),
  handler: async ({ agent, params, body }) =>
    setSchedulePaused({ db: db(), agentId: agent.id, name: params.name, paused: body.paused }),
});
