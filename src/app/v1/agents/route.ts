// GET /v1/agents — the agents the caller may see, with their playground URLs
import { authenticate } from "@/server/http/agent-route";
import { db } from "@/server/http/platform";
import { defineRoute } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = defineRoute({
  auth: authenticate,
  handler: async ({ request, principal }) => {
    const origin = new URL(request.url).origin;
    const agents = await db().agent.findMany({
      // A token belongs to one team, a signed-in person to theirs; `can` decides per agent below.
      where: principal?.teamId
        ? { teamId: principal.teamId }
        : principal?.teamIds
          ? { teamId: { in: principal.teamIds } }
          : {},
      select: { slug: true, name: true, description: true, teamId: true },
      orderBy: { slug: "asc" },
    });
    const visible = agents.filter(
      (agent) =>
        principal!.can("agents:read", agent.slug, agent.teamId) ||
        principal!.can("sessions:read", agent.slug, agent.teamId),
    );
    return {
      ok: true,
      agents: visible.map((agent) => ({
        slug: agent.slug,
        name: agent.name,
        description: agent.description,
        playgroundUrl: `${origin}/${agent.slug}/playground`,
      })),
    };
  },
});
