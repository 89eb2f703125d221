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
  const pool = poolOf(db);
  const { rows: listed } = await pool.query<{ path: string; updatedAt: Date }>({
    name: "agentfold-memory-list",
    text: `SELECT path, "updatedAt" AT TIME ZONE 'UTC' AS "updatedAt" FROM agent_files
           WHERE "agentId" = $1 AND "scopeKey" = '' AND path LIKE $2 ORDER BY path LIMIT $3`,
    values: [agentId, `${memoryDir}/%`, maxFiles],
  });
  // A copy carries its file's updatedAt as its mtime: only files changed since are read again.
  const stale = listed.filter((row) => {
    const copy = fs.statSync(confinedPath(workspaceDir, row.path), { throwIfNoEntry: false });
    return copy?.mtimeMs !== row.updatedAt.getTime();
  });
  if (stale.length === 0) return;
  const { rows } = await pool.query<{ path: string; content: Buffer; updatedAt: Date }>({
    name: "agentfold-memory-read",
    text: `SELECT path, content, "updatedAt" AT TIME ZONE 'UTC' AS "updatedAt" FROM agent_files
           WHERE "agentId" = $1 AND "scopeKey" = '' AND path = ANY($2::text[])`,
    values: [agentId, stale.map((row) => row.path)],
  });
  for (const row of rows) {
    const file = confinedPath(workspaceDir, row.path);
    const made = fs.mkdirSync(path.dirname(file), { recursive: true });
    // Read-only to the tools: replaced, not written through (a write to the copy would be lost).
    fs.rmSync(file, { force: true });
    fs.writeFileSync(file, row.content, { mode: 0o444 });
    fs.utimesSync(file, row.updatedAt, row.updatedAt);
    handOver(file, made);
  }
}
