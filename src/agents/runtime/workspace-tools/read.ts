// read: a text file with line numbers (like `cat -n`), streamed so a huge file costs only the
// lines returned, and capped so one call cannot flood the model's context.
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import readline from "node:readline";
import { z } from "zod";
import { resolveInWorkspace } from "./confine";
import { binaryFileError, fileStartsBinary, onPath } from "./files";
import { defineWorkspaceTool, type WorkspaceTool } from "./tool";

export const readMaxLines = 2000;
export const readMaxBytes = 256 * 1024;
export const readMaxLineChars = 2000;

const readInputSchema = z.strictObject({
  path: z.string().min(1).describe("File path relative to the workspace root"),
  offset: z.number().int().min(1).optional().describe("1-based line number to start from (default 1)"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(readMaxLines)
    .optional()
    .describe(`How many lines to return (default and maximum ${readMaxLines})`),
});

type Page = { lines: string[]; firstLine: number; seen: number; hasMore: boolean; hasCutLines: boolean };

async function readPage(absolute: string, offset: number, limit: number): Promise<Page> {
  const page: Page = { lines: [], firstLine: offset, seen: 0, hasMore: false, hasCutLines: false };
  const stream = createReadStream(absolute, { encoding: "utf8" });
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  let bytes = 0;
  try {
    for await (const line of lines) {
      page.seen++;
      if (page.seen < offset) continue;
      const isCut = line.length > readMaxLineChars;
      const text = isCut ? `${line.slice(0, readMaxLineChars)}… [line cut]` : line;
      const numbered = `${String(page.seen).padStart(6)}\t${text}`;
      bytes += Buffer.byteLength(numbered) + 1;
      if (page.lines.length === limit || (bytes > readMaxBytes && page.lines.length > 0)) {
        page.hasMore = true;
        break;
      }
      page.hasCutLines ||= isCut;
      page.lines.push(numbered);
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  return page;
}

function describePage(page: Page, shown: string, offset: number): string {
  if (page.lines.length === 0) {
    return page.seen === 0
      ? `(${shown} is empty)`
      : `(${shown} has ${page.seen} lines; offset ${offset} is past the end)`;
  }
  const lastLine = page.firstLine + page.lines.length - 1;
  const notes: string[] = [];
  if (page.hasCutLines) notes.push(`[lines longer than ${readMaxLineChars} characters were cut]`);
  if (page.hasMore) {
    notes.push(
      `[truncated: showing lines ${page.firstLine}-${lastLine}; call read with offset ${lastLine + 1} for more]`,
    );
  }
  return [page.lines.join("\n"), ...notes].join("\n\n");
}

export function readTool(workspaceDir: string): WorkspaceTool {
  return defineWorkspaceTool({
    name: "read",
    effect: "read",
    description:
      `Read a text file in the workspace. Lines come numbered (number, tab, text); at most ${readMaxLines} lines ` +
      `or ${readMaxBytes / 1024} KiB per call, so page through long files with offset and limit. Binary files are refused.`,
    input: readInputSchema,
    run: async ({ path, offset = 1, limit = readMaxLines }) => {
      const { absolute, shown } = resolveInWorkspace(workspaceDir, path);
      const stats = await onPath(shown, () => fs.stat(absolute));
      if (stats.isDirectory()) throw new Error(`"${shown}" is a directory; use ls to list it`);
      // A FIFO or device would block or never end.
      if (!stats.isFile()) throw new Error(`"${shown}" is not a regular file`);
      if (await onPath(shown, () => fileStartsBinary(absolute))) throw binaryFileError(shown);
      return describePage(await onPath(shown, () => readPage(absolute, offset, limit)), shown, offset);
    },
  });
}
