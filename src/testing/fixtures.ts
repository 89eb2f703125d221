// Rows the integration tests need: a team, an agent with a ready version, and sessions on it.
import crypto from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";
import { emptyManifest, type AgentManifest } from "@/agents/loader/manifest";

export async function createTestAgent(db: PrismaClient) {
  const suffix = crypto.randomUUID().slice(0, 8);
  const team = await db.team.create({ data: { slug: `team-${suffix}`, name: "Test team" } });
  const agent = await db.agent.create({ data: { teamId: team.id, slug: `agent-${suffix}`, name: "Test agent" } });
  const version = await db.agentVersion.create({
    data: {
      agentId: agent.id,
      number: 1,
      status: "ready",
      archivePath: "-",
      diagnostics: [],
      fileCount: 1,
      sourceBytes: 1,
    },
  });
  await db.agent.update({ where: { id: agent.id }, data: { activeVersionId: version.id } });
  return { team, agent, version };
}

export async function createTestSession(db: PrismaClient, options: { mode?: "chat" | "task" } = {}) {
  const { agent, version } = await createTestAgent(db);
  return db.session.create({
    data: {
      id: `ses_${crypto.randomUUID().replace(/-/g, "")}`,
      agentId: agent.id,
      agentVersionId: version.id,
      ownerKind: "local",
      ownerId: "test",
      mode: options.mode ?? "chat",
    },
  });
}

/** A complete manifest with `fields` filled in, as a version row stores it: a version's manifest
 * is read by every worker on the database (its schedulers among them), so a partial one would
 * break them. */
export function testManifest(fields: Partial<AgentManifest> = {}): Prisma.InputJsonObject {
  const manifest: AgentManifest = { ...emptyManifest, name: "test-agent", root: "bot", ...fields };
  return manifest as unknown as Prisma.InputJsonObject;
}
