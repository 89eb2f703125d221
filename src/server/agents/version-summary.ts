// The one projection of an AgentVersion row that services return.
import type { Prisma } from "@prisma/client";
import type { Diagnostic } from "@/agents/loader/diagnostics";
import type { AgentManifest } from "@/agents/loader/manifest";
import type { AgentVersionSummary } from "./schema";

export const versionSelect = {
  id: true,
  agentId: true,
  number: true,
  status: true,
  diagnostics: true,
  manifest: true,
  fileCount: true,
  sourceBytes: true,
  createdAt: true,
  agent: { select: { slug: true, activeVersionId: true } },
} satisfies Prisma.AgentVersionSelect;

type Row = Prisma.AgentVersionGetPayload<{ select: typeof versionSelect }>;

export function toVersionSummary(row: Row): AgentVersionSummary {
  return {
    id: row.id,
    agentId: row.agentId,
    slug: row.agent.slug,
    number: row.number,
    status: row.status,
    isActive: row.agent.activeVersionId === row.id,
    diagnostics: row.diagnostics as Diagnostic[],
    manifest: row.manifest as AgentManifest | null,
    fileCount: row.fileCount,
    sourceBytes: row.sourceBytes,
    createdAt: row.createdAt,
  };
}
