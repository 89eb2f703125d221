// ls: one directory's entries, sorted, directories marked with a trailing "/" (symlinks with
// "@", as `ls -F` does) so the model can tell what to descend into.
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import { z } from "zod";
import { resolveInWorkspace } from "./confine";
import { onPath } from "./files";
import { defineWorkspaceTool, type WorkspaceTool } from "./tool";

export const lsMaxEntries = 1000;

const lsInputSchema = z.strictObject({
  path: z.string().min(1).optional().describe("Directory relative to the workspace root (default: the root)"),
});

function entryName(entry: Dirent): string {
  if (entry.isDirectory()) return `${entry.name}/`;
  // Not followed: whether a link points at a directory would be read from outside the workspace.
  if (entry.isSymbolicLink()) return `${entry.name}@`;
  return entry.name;
}

export function lsTool(workspaceDir: string): WorkspaceTool {
  return defineWorkspaceTool({
    name: "ls",
    effect: "read",
    description:
      'List a directory in the workspace, sorted by name. Directories end in "/", symlinks in "@". ' +
      `At most ${lsMaxEntries} entries.`,
    input: lsInputSchema,
    run: async ({ path = "." }) => {
      const { absolute, shown } = resolveInWorkspace(workspaceDir, path);
      const stats = await onPath(shown, () => fs.stat(absolute));
      if (!stats.isDirectory()) throw new Error(`"${shown}" is a file, not a directory; use read to see it`);
      const entries = await onPath(shown, () => fs.readdir(absolute, { withFileTypes: true }));
      if (entries.length === 0) return `(${shown} is empty)`;
      const names = entries.map(entryName).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (names.length <= lsMaxEntries) return names.join("\n");
      const note = `[truncated: showing ${lsMaxEntries} of ${names.length} entries; use glob to narrow down]`;
      return [...names.slice(0, lsMaxEntries), "", note].join("\n");
    },
  });
}
