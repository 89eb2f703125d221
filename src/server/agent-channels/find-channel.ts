// The channel a /<slug>/v1/channels/<id>/… request names: the agent, its active version and the
// channel in that version's manifest; not_found for any of them missing.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import { findAgentBySlug, type AgentBySlug } from "@/server/agents/find-agent-by-slug";
import { AppError } from "@/server/errors";

export type FoundChannel = {
  agent: AgentBySlug;
  /** `bundlePath` is under the data directory. */
  version: { id: string; bundlePath: string };
  channel: AgentManifest["channels"][number];
};

export async function findChannel(db: PrismaClient, slug: string, channelId: string): Promise<FoundChannel> {
  const agent = await findAgentBySlug(db, slug);
  if (!agent?.activeVersionId) throw new AppError("not_found", `no agent '${slug}'`);
  const version = await db.agentVersion.findUniqueOrThrow({
    where: { id: agent.activeVersionId },
    select: { id: true, manifest: true, bundlePath: true },
  });
  const manifest = version.manifest as AgentManifest | null;
  const channel = manifest?.channels.find((candidate) => candidate.name === channelId);
  if (!channel || !version.bundlePath) throw new AppError("not_found", `agent '${slug}' has no channel '${channelId}'`);
  return { agent, version: { id: version.id, bundlePath: version.bundlePath }, channel };
}
