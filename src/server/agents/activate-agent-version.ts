// Switches an agent's active version: one UPDATE, so every reader sees the old version or the
// new one, never a mix. Old versions stay for rollback.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import { AppError } from "@/server/errors";
import type { AgentVersionSummary } from "./schema";
import { toVersionSummary, versionSelect } from "./version-summary";
import { forgetCredentials } from "@/server/auth/credential-cache";

export async function activateAgentVersion(options: {
  db: PrismaClient;
  teamId: string;
  slug: string;
  versionNumber: number;
}): Promise<AgentVersionSummary> {
  const { db, teamId, slug, versionNumber } = options;
  const version = await db.agentVersion.findFirst({
    where: { number: versionNumber, agent: { slug, teamId } },
    select: { id: true, agentId: true, status: true, manifest: true },
  });
  if (!version) throw new AppError("not_found", `agent '${slug}' has no version ${versionNumber}`);
  if (version.status !== "ready")
    throw new AppError(
      "conflict",
      `version ${versionNumber} of '${slug}' has validation errors and cannot be activated`,
    );
  const manifest = version.manifest as AgentManifest | null;
  await db.agent.update({
    where: { id: version.agentId },
    data: {
      activeVersionId: version.id,
      ...(manifest ? { name: manifest.name, description: manifest.description ?? null } : {}),
    },
  });
  forgetCredentials();
  return toVersionSummary(
    await db.agentVersion.findUniqueOrThrow({ where: { id: version.id }, select: versionSelect }),
  );
}
