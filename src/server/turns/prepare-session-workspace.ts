// The session workspace, laid out on the session's first turn (a copy from the worker's stock when
// there is one) and given this send's workspaceFiles. Idempotent: the layout is done once, then
// marked (docs/turns.md "Journaled steps and crash recovery").
import path from "node:path";
import type { AgentManifest } from "@/agents/loader/manifest";
import { isPrepared, prepareWorkspace, writeWorkspaceFiles } from "@/agents/runtime/prepare-workspace";
import { ensureWorkspaceDir } from "@/agents/runtime/workspace-owner";
import type { WorkspaceStock } from "@/agents/runtime/workspace-stock";
import { adoptLegacyWorkspace, versionPaths, workspaceStockDir } from "@/server/agents/storage";
import type { TurnRequest } from "@/server/durable/runtime";
import type { TurnSetup } from "./engine";

export function prepareSessionWorkspace(
  dataDir: string,
  setup: TurnSetup,
  turn: TurnRequest,
  stock?: WorkspaceStock,
): void {
  const files = turn.workspaceFiles ?? {};
  const { manifest, workspaceDir } = setup;
  adoptLegacyWorkspace(dataDir, setup.session.agentId, setup.session.id, workspaceDir);
  if (!manifest.root) {
    ensureWorkspaceDir(workspaceDir);
    writeWorkspaceFiles(workspaceDir, files);
    return;
  }
  const { agentId, versionId } = setup.session;
  const paths = versionPaths(dataDir, agentId, versionId);
  const layOut = (dir: string, workspaceFiles?: Record<string, string>) =>
    prepareWorkspace({
      workspaceDir: dir,
      // A project uploaded from above the agent folder has it below the root (pack-project.ts).
      sourceDir: path.join(paths.source, manifest.folder ?? ""),
      bundleDir: paths.bundle,
      manifest: manifest as AgentManifest,
      workspaceFiles,
    });
  const laidOut = (dir: string) => (layOut(dir), isPrepared(dir));
  if (stock?.take(workspaceStockDir(dataDir, agentId, versionId), workspaceDir, laidOut)) {
    writeWorkspaceFiles(workspaceDir, files);
  } else {
    layOut(workspaceDir, files);
  }
}
