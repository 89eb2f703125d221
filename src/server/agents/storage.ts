// Where an agent's files live under the data directory. Everything an upload writes stays
// inside its version directory; sessions write only inside their workspace.
import path from "node:path";

export function agentDir(dataDir: string, agentId: string): string {
  return path.join(dataDir, "agents", agentId);
}

export function versionPaths(dataDir: string, agentId: string, versionId: string) {
  const dir = path.join(agentDir(dataDir, agentId), "versions", versionId);
  return {
    dir,
    source: path.join(dir, "source"),
    bundle: path.join(dir, "bundle"),
    archive: (format: "zip" | "tar.gz") => path.join(dir, `source.${format}`),
  };
}

export function workspaceDir(dataDir: string, agentId: string, sessionId: string): string {
  return path.join(agentDir(dataDir, agentId), "workspaces", sessionId);
}

/** Where the worker keeps a version's workspaces laid out ahead of time (workspace-stock.ts). */
export function workspaceStockDir(dataDir: string, agentId: string, versionId: string): string {
  return path.join(agentDir(dataDir, agentId), "workspace-stock", versionId);
}

/** The agent's durable state root, shared across its sessions (tool ctx.stateRoot). */
export function stateRoot(dataDir: string, agentId: string): string {
  return path.join(agentDir(dataDir, agentId), "state");
}
