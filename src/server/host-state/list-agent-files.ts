// An agent's deployment files for the dashboard, the most recently changed first.
import type { PrismaClient } from "@prisma/client";
import { type AgentFileList, listedAgentFiles } from "./schema";

export async function listAgentFiles(options: { db: PrismaClient; agentId: string }): Promise<AgentFileList> {
  const rows = await options.db.agentFile.findMany({
    where: { agentId: options.agentId, scopeKey: "" },
    select: { path: true, size: true, updatedAt: true },
    orderBy: [{ updatedAt: "desc" }, { path: "asc" }],
    take: listedAgentFiles + 1,
  });
  return {
    files: rows.slice(0, listedAgentFiles).map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() })),
    isTruncated: rows.length > listedAgentFiles,
  };
}
