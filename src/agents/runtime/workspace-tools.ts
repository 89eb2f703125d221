// The built-in harness tools over a session's workspace (read, ls, grep, glob, write, edit),
// filtered by the agent's `tools` allowlist. Every path they take is confined to the workspace;
// see workspace-tools/confine.ts.
import path from "node:path";
import { editTool } from "./workspace-tools/edit";
import { globTool } from "./workspace-tools/glob";
import { grepTool } from "./workspace-tools/grep";
import { lsTool } from "./workspace-tools/ls";
import { readTool } from "./workspace-tools/read";
import { workspaceToolNames, type WorkspaceTool, type WorkspaceToolName } from "./workspace-tools/tool";
import { writeTool } from "./workspace-tools/write";

export { workspaceToolNames, type WorkspaceTool, type WorkspaceToolName };

const factories: Record<WorkspaceToolName, (workspaceDir: string) => WorkspaceTool> = {
  read: readTool,
  ls: lsTool,
  grep: grepTool,
  glob: globTool,
  write: writeTool,
  edit: editTool,
};

export type WorkspaceToolsOptions = {
  workspaceDir: string;
  /** The agent's `tools` allowlist; names that are not workspace tools (e.g. "mcp") are ignored.
   * Without one, every workspace tool is available. */
  allowlist?: readonly string[];
};

/** The allowed workspace tools, in workspaceToolNames order. */
export function workspaceTools(options: WorkspaceToolsOptions): WorkspaceTool[] {
  const workspaceDir = path.resolve(options.workspaceDir);
  const allowed = options.allowlist === undefined ? undefined : new Set(options.allowlist);
  return workspaceToolNames.filter((name) => allowed?.has(name) ?? true).map((name) => factories[name](workspaceDir));
}
