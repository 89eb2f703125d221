// grep: a regular-expression search over the workspace's text files, answered as
// "file:line: text" lines. Capped, because a pattern like "e" would otherwise return the whole
// workspace into the model's context.
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { resolveInWorkspace, shownPath } from "./confine";
import { looksBinary, onPath } from "./files";
import { fileFilter } from "./glob-pattern";
import { defineWorkspaceTool, type WorkspaceTool } from "./tool";
import { walkFiles } from "./walk";

export const grepMaxMatches = 500;
export const grepMaxLineChars = 500;
/** Larger files are skipped: they are data or generated, and reading them whole costs memory. */
export const grepMaxFileBytes = 5 * 1024 * 1024;

const grepInputSchema = z.strictObject({
  pattern: z.string().min(1).describe("JavaScript regular expression, matched against each line"),
  path: z
    .string()
    .min(1)
    .optional()
    .describe("File or directory to search, relative to the workspace root (default: the whole workspace)"),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Only search files matching this glob: "*.ts" matches names at any depth, "src/**/*.md" paths under path',
    ),
  ignoreCase: z.boolean().optional().describe("Match case-insensitively"),
});

function compile(pattern: string, isIgnoringCase: boolean): RegExp {
  try {
    return new RegExp(pattern, isIgnoringCase ? "i" : "");
  } catch (error) {
    throw new Error(`invalid regular expression /${pattern}/: ${(error as Error).message}`);
  }
}

async function* candidates(root: string, start: string, glob: string | undefined): AsyncGenerator<string> {
  const stats = await onPath(shownPath(root, start), () => fs.stat(start));
  // A file named directly is searched whatever the glob says, as ripgrep does.
  if (stats.isFile()) {
    yield start;
    return;
  }
  if (!stats.isDirectory()) return;
  const isWanted = glob === undefined ? () => true : fileFilter(glob);
  for await (const file of walkFiles(root, start)) {
    if (isWanted(path.relative(start, file).split(path.sep).join("/"))) yield file;
  }
}

async function searchFile(file: string, regexp: RegExp, shown: string, matches: string[]): Promise<void> {
  const stats = await fs.stat(file).catch(() => undefined);
  if (!stats?.isFile() || stats.size > grepMaxFileBytes) return;
  const buffer = await fs.readFile(file).catch(() => undefined);
  if (!buffer || looksBinary(buffer)) return;
  const lines = buffer.toString("utf8").split(/\r?\n/);
  for (let index = 0; index < lines.length && matches.length <= grepMaxMatches; index++) {
    const line = lines[index]!;
    if (!regexp.test(line)) continue;
    const text = line.length > grepMaxLineChars ? `${line.slice(0, grepMaxLineChars)}… [line cut]` : line;
    matches.push(`${shown}:${index + 1}: ${text}`);
  }
}

export function grepTool(workspaceDir: string): WorkspaceTool {
  return defineWorkspaceTool({
    name: "grep",
    effect: "read",
    description:
      'Search text files in the workspace with a JavaScript regular expression; answers "file:line: text" lines. ' +
      `Skips binary files, files over ${grepMaxFileBytes / 1024 / 1024} MiB, and node_modules/.git (name one as path to search it). ` +
      `At most ${grepMaxMatches} matches.`,
    input: grepInputSchema,
    run: async ({ pattern, path: requested = ".", glob, ignoreCase = false }) => {
      const regexp = compile(pattern, ignoreCase);
      const { root, absolute } = resolveInWorkspace(workspaceDir, requested);
      // One match past the cap tells "exactly at the cap" apart from "more were left out".
      const matches: string[] = [];
      for await (const file of candidates(root, absolute, glob)) {
        await searchFile(file, regexp, shownPath(root, file), matches);
        if (matches.length > grepMaxMatches) break;
      }
      if (matches.length === 0) return "no matches";
      if (matches.length <= grepMaxMatches) return matches.join("\n");
      const note = `[truncated: showing the first ${grepMaxMatches} matches; narrow the pattern, path or glob]`;
      return [...matches.slice(0, grepMaxMatches), "", note].join("\n");
    },
  });
}
