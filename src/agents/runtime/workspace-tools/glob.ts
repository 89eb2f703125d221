// glob: workspace files whose path matches a pattern, for finding files by name before reading.
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { resolveInWorkspace, shownPath } from "./confine";
import { onPath } from "./files";
import { globToRegExp } from "./glob-pattern";
import { defineWorkspaceTool, type WorkspaceTool } from "./tool";
import { walkFiles } from "./walk";

export const globMaxResults = 1000;

const globInputSchema = z.strictObject({
  pattern: z.string().min(1).describe('Glob matched against paths relative to path, e.g. "**/*.ts" or "docs/*.md"'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe("Directory to search, relative to the workspace root (default: the root)"),
});

// The pattern is matched against relative paths, so "/etc/*" or "../*" could only ever match
// nothing; saying why is more useful to the model than an empty answer.
function assertRelativePattern(pattern: string): void {
  if (pattern.startsWith("/") || pattern.split("/").includes("..")) {
    throw new Error(`glob pattern "${pattern}" must stay inside the workspace; choose the directory with path instead`);
  }
}

export function globTool(workspaceDir: string): WorkspaceTool {
  return defineWorkspaceTool({
    name: "glob",
    effect: "read",
    description:
      'Find workspace files by path pattern: "**" spans directories, "*" and "?" stay within a name, ' +
      '"{a,b}" is either, "[abc]" one of. Answers matching file paths relative to the workspace root, ' +
      `in name order. Skips node_modules/.git unless path is inside one. At most ${globMaxResults} results.`,
    input: globInputSchema,
    run: async ({ pattern, path: requested = "." }) => {
      assertRelativePattern(pattern);
      const regexp = globToRegExp(pattern.replace(/^\.\//, ""));
      const { root, absolute, shown } = resolveInWorkspace(workspaceDir, requested);
      const stats = await onPath(shown, () => fs.stat(absolute));
      if (!stats.isDirectory()) throw new Error(`"${shown}" is not a directory; glob searches a directory`);
      // One result past the cap tells "exactly at the cap" apart from "more were left out".
      const found: string[] = [];
      for await (const file of walkFiles(root, absolute)) {
        if (!regexp.test(path.relative(absolute, file).split(path.sep).join("/"))) continue;
        found.push(shownPath(root, file));
        if (found.length > globMaxResults) break;
      }
      if (found.length === 0) return "no files match";
      if (found.length <= globMaxResults) return found.join("\n");
      const note = `[truncated: showing the first ${globMaxResults} files; narrow the pattern or path]`;
      return [...found.slice(0, globMaxResults), "", note].join("\n");
    },
  });
}
