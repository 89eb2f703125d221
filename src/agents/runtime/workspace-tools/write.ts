// write: creates or replaces a whole file, making parent directories as needed.
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { resolveInWorkspace } from "./confine";
import { handOver } from "../workspace-owner";
import { onPath } from "./files";
import { defineWorkspaceTool, type WorkspaceTool } from "./tool";

const writeInputSchema = z.strictObject({
  path: z.string().min(1).describe("File path relative to the workspace root"),
  content: z.string().describe("The complete new content of the file"),
});

export function writeTool(workspaceDir: string): WorkspaceTool {
  return defineWorkspaceTool({
    name: "write",
    effect: "write",
    description:
      "Create or overwrite a text file in the workspace with the given content; parent directories are created. " +
      "To change part of an existing file, prefer edit.",
    input: writeInputSchema,
    run: async ({ path: requested, content }) => {
      const { absolute, shown } = resolveInWorkspace(workspaceDir, requested);
      const existing = await fs.stat(absolute).catch(() => undefined);
      if (existing?.isDirectory()) throw new Error(`"${shown}" is a directory; give a file path`);
      // Writing to a FIFO or device would block or reach beyond the file system.
      if (existing && !existing.isFile()) throw new Error(`"${shown}" is not a regular file`);
      const made = await onPath(shown, () => fs.mkdir(path.dirname(absolute), { recursive: true }));
      await onPath(shown, () => fs.writeFile(absolute, content));
      handOver(absolute, made);
      return `wrote ${Buffer.byteLength(content)} bytes to ${shown}`;
    },
  });
}
