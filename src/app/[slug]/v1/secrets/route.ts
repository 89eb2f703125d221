// GET /<slug>/v1/secrets — the agent's secret names, when each was set, and which the active version is missing
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db } from "@/server/http/platform";
import { listSecrets } from "@/server/secrets/list-secrets";

export const dynamic = "force-dynamic";

export const GET = defineAgentRoute({
  action: "agents:deploy",
  params: z.object({ slug: z.string() }),
  handler: async ({ agent }) => ({ ok: true, ...(await listSecrets({ db: db(), agentId: agent.id })) }),
});
