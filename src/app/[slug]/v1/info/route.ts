// GET /<slug>/v1/info — the agent's surface (its active version's manifest)
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { AppError } from "@/server/errors";
import { db } from "@/server/http/platform";

export const dynamic = "force-dynamic";

export const GET = defineAgentRoute({
  action: "agents:read",
  params: z.object({ slug: z.string() }),
  handler: async ({ agent }) => {
    if (!agent.activeVersionId) throw new AppError("not_found", `agent '${agent.slug}' has no active version`);
    const version = await db().agentVersion.findUniqueOrThrow({
      where: { id: agent.activeVersionId },
      select: { number: true, manifest: true },
    });
    return { ok: true, slug: agent.slug, version: version.number, agent: version.manifest };
  },
});
