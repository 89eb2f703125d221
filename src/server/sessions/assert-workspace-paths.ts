// Rejects per-send workspace files whose paths would land outside the workspace (400), before
// anything is recorded or sent.
import { confinedPath } from "@/agents/runtime/prepare-workspace";

export function assertWorkspacePaths(files: Record<string, string> | undefined): void {
  for (const file of Object.keys(files ?? {})) confinedPath("/workspace", file);
}
