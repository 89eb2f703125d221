// Teams' agents for the dashboard lists: status, the active version and a count of its surface.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";

export function surfaceCounts(manifest: AgentManifest | null) {
  return {
    tools: manifest?.tools.length ?? 0,
    skills: manifest?.skills.length ?? 0,
    subagents: manifest?.subagents.length ?? 0,
    hooks: manifest?.hooks.length ?? 0,
    channels: manifest?.channels.length ?? 0,
    schedules: manifest?.schedules.length ?? 0,
  };
}

export async function findTeamAgents({ db, teamIds }: { db: PrismaClient; teamIds: string[] }) {
  const agents = await db.agent.findMany({
    where: { teamId: { in: teamIds } },
    orderBy: { slug: "asc" },
    select: {
      teamId: true,
      slug: true,
      name: true,
      description: true,
      updatedAt: true,
      activeVersion: { select: { number: true, manifest: true, createdAt: true } },
      _count: { select: { versions: true } },
    },
  });
  return agents.map((agent) => ({
    teamId: agent.teamId,
    slug: agent.slug,
    name: agent.name,
    description: agent.description,
    status: agent.activeVersion ? ("active" as const) : ("no_active_version" as const),
    activeVersion: agent.activeVersion?.number ?? null,
    versionCount: agent._count.versions,
    surface: surfaceCounts(agent.activeVersion?.manifest as AgentManifest | null),
    updatedAt: agent.updatedAt,
  }));
}
