// The agent's `memory/` files (deployment-scope host.files, where memoryHook() journals) as a
// read-only copy in the session workspace, refreshed before each turn, so the model reads its
// memory with its file tools (docs/agent-folders.md, "Memory"). Only agents with hooks pay for it.
import fs from "node:fs";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import { confinedPath } from "@/agents/runtime/prepare-workspace";
import { handOver } from "@/agents/runtime/workspace-owner";
import { poolOf } from "@/server/db";

export const memoryDir = "memory";
const maxFiles = 100;

export async function refreshMemoryView(db: PrismaClient, agentId: string, workspaceDir: string): Promise<void> {
  const { rows } = await poolOf(db).query<{ path: string; content: Buffer }>({
    name: "agentfold-memory-view",
    text: `SELECT path, content FROM agent_files WHERE "agentId" = $1 AND "scopeKey" = '' AND path LIKE $2
           ORDER BY path LIMIT $3`,
    values: [agentId, `${memoryDir}/%`, maxFiles],
  });
  for (const row of rows) {
    const file = confinedPath(workspaceDir, row.path);
    const made = fs.mkdirSync(path.dirname(file), { recursive: true });
    // Read-only to the tools: replaced, not written through (a write to the copy would be lost).
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, row.content, { mode: 0o444 });
    handOver(file, made);
  }
}
