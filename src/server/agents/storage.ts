// Where an agent's files live under the data directory. Everything an upload writes stays
// inside its version directory; sessions write only inside their workspace.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { VersionSandboxSpec } from "@/agents/sandbox/pool";
import { readOrCreateSecret } from "@/server/config/secrets";

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

/** Where an agent's session workspaces live; agent code may enter it, not list it. */
export function workspacesRoot(dataDir: string, agentId: string): string {
  return path.join(agentDir(dataDir, agentId), "workspaces");
}

/**
 * A session's workspace. Its folder is named by a keyed hash of the session id, not the id: a
 * version's sandbox serves all its sessions and may enter any workspace it can name, so a name
 * that only the platform can derive keeps a tool that is given another session's id (or guesses
 * one) out of that session's files.
 */
export function workspaceDir(dataDir: string, agentId: string, sessionId: string): string {
  const name = crypto.createHmac("sha256", workspaceKey(dataDir)).update(sessionId).digest("base64url").slice(0, 32);
  return path.join(workspacesRoot(dataDir, agentId), name);
}

/** Moves a workspace kept under its session id (before workspace names were hashed) to where it
 * lives now, once: a session started before the change keeps its files. */
export function adoptLegacyWorkspace(dataDir: string, agentId: string, sessionId: string, dir: string): void {
  const legacy = path.join(workspacesRoot(dataDir, agentId), sessionId);
  if (legacy === dir || fs.existsSync(dir) || !fs.existsSync(legacy)) return;
  fs.renameSync(legacy, dir);
}

const workspaceKeys = new Map<string, string>();
function workspaceKey(dataDir: string): string {
  let key = workspaceKeys.get(dataDir);
  if (!key) {
    key = readOrCreateSecret(path.join(dataDir, "workspace-key"), () => crypto.randomBytes(32).toString("base64url"));
    workspaceKeys.set(dataDir, key);
  }
  return key;
}

/** Where the worker keeps a version's workspaces laid out ahead of time (workspace-stock.ts). */
export function workspaceStockDir(dataDir: string, agentId: string, versionId: string): string {
  return path.join(agentDir(dataDir, agentId), "workspace-stock", versionId);
}

/** The agent's durable state root, shared across its sessions (tool ctx.stateRoot). */
export function stateRoot(dataDir: string, agentId: string): string {
  return path.join(agentDir(dataDir, agentId), "state");
}

/** What a version's sandboxes are given: its bundle (absolute), its project, its agent's dirs. */
export function versionSandboxSpec(
  dataDir: string,
  version: { agentId: string; versionId: string; bundlePath: string },
): VersionSandboxSpec {
  return {
    versionId: version.versionId,
    bundlePath: version.bundlePath,
    projectDir: versionPaths(dataDir, version.agentId, version.versionId).source,
    agentDir: agentDir(dataDir, version.agentId),
  };
}
