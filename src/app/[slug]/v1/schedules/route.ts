// GET /<slug>/v1/schedules — the agent's schedules: cron, paused, next run, last run
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db } from "@/server/http/platform";
import { findSchedules } from "@/server/schedules/find-schedules";

export const dynamic = "force-dynamic";

export const GET = defineAgentRoute({
  action: "agents:read",
  params: z.object({ slug: z.string() }),
  handler: async ({ agent }) => ({ ok: true, schedules: await findSchedules({ db: db(), agentId: agent.id }) }),
});
