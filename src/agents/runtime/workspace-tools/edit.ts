// edit: exact-text replacement in a file. oldText must match exactly once unless replaceAll is
// set, so an ambiguous edit fails loudly instead of changing the wrong place.
import fs from "node:fs/promises";
import { z } from "zod";
import { resolveInWorkspace } from "./confine";
import { onPath, readTextFile } from "./files";
import { defineWorkspaceTool, type WorkspaceTool } from "./tool";

const editInputSchema = z.strictObject({
  path: z.string().min(1).describe("File path relative to the workspace root"),
  oldText: z.string().min(1).describe("Exact text to replace, including whitespace and indentation"),
  newText: z.string().describe("Text to put in its place"),
  replaceAll: z.boolean().optional().describe("Replace every occurrence instead of requiring exactly one"),
});

export function editTool(workspaceDir: string): WorkspaceTool {
  return defineWorkspaceTool({
    name: "edit",
    effect: "write",
    description:
      "Replace exact text in a workspace file. oldText must occur exactly once (add surrounding lines to make it " +
      "unique) unless replaceAll is true. Read the file first and copy the text exactly.",
    input: editInputSchema,
    run: async ({ path, oldText, newText, replaceAll = false }) => {
      const { absolute, shown } = resolveInWorkspace(workspaceDir, path);
      const content = await readTextFile(absolute, shown);
      const parts = content.split(oldText);
      const count = parts.length - 1;
      if (count === 0) {
        throw new Error(
          `oldText was not found in ${shown}; read the file and copy the text exactly, whitespace included`,
        );
      }
      if (count > 1 && !replaceAll) {
        throw new Error(
          `oldText occurs ${count} times in ${shown}; include more surrounding text to make it unique, or set replaceAll: true`,
        );
      }
      if (oldText === newText) throw new Error("oldText and newText are the same; nothing would change");
      // split/join rather than String.replace, which would read "$&" or "$1" in newText as patterns.
      await onPath(shown, () => fs.writeFile(absolute, parts.join(newText)));
      return `replaced ${count} occurrence${count === 1 ? "" : "s"} in ${shown}`;
    },
  });
}
