// One agent of a team with every version (who uploaded it, when, its diagnostics) and the
// surface of the active one, for the agent page.
import type { PrismaClient } from "@prisma/client";
import type { Diagnostic } from "@/agents/loader/diagnostics";
import type { AgentManifest } from "@/agents/loader/manifest";
import { AppError } from "@/server/errors";

export async function getTeamAgent({ db, teamId, slug }: { db: PrismaClient; teamId: string; slug: string }) {
  const agent = await db.agent.findFirst({
    where: { teamId, slug },
    select: {
      slug: true,
      name: true,
      description: true,
      activeVersionId: true,
      allowAnonymous: true,
      versions: {
        orderBy: { number: "desc" },
        select: {
          id: true,
          number: true,
          status: true,
          diagnostics: true,
          manifest: true,
          fileCount: true,
          sourceBytes: true,
          createdAt: true,
          createdBy: { select: { email: true, name: true } },
        },
      },
    },
  });
  if (!agent) throw new AppError("not_found", `no agent '${slug}' in this team`);
  const versions = agent.versions.map(({ manifest, createdBy, ...version }) => ({
    ...version,
    isActive: version.id === agent.activeVersionId,
    diagnostics: version.diagnostics as Diagnostic[],
    createdBy: createdBy ? (createdBy.name ?? createdBy.email) : "the CLI or a token",
    manifest: manifest as AgentManifest | null,
  }));
  const active = versions.find((v) => v.isActive);
  return {
    slug: agent.slug,
    name: agent.name,
    description: agent.description,
    allowAnonymous: agent.allowAnonymous,
    versions: versions.map(({ manifest: _, ...v }) => v),
    surface: active?.manifest ? surfaceOf(active.manifest) : null,
  };
}

/** The surface a person reads at a glance: names and one line each. */
function surfaceOf(m: AgentManifest) {
  return {
    model: typeof m.model === "string" ? m.model : null,
    tools: m.tools.map((t) => ({
      name: t.name,
      description: t.description,
      effect: t.effect,
      needsApproval: t.needsApproval !== false,
    })),
    skills: m.skills.map((s) => ({ name: s.name, description: s.description ?? "" })),
    subagents: m.subagents.map((s) => ({ name: s.id, description: s.description ?? "" })),
    hooks: m.hooks.map((h) => ({ name: h.name, description: h.events.join(", ") })),
    channels: m.channels.map((c) => ({
      name: c.name,
      description: c.routes.map((r) => `${r.method} ${r.path}`).join(", "),
    })),
    schedules: m.schedules.map((s) => ({ name: s.name, description: s.cron ?? s.form })),
  };
}
