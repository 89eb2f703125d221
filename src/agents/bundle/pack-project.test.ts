import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { writeFiles } from "@/testing/folders";
import { extractedAgentFolder, packProject, projectMarkerFile, projectRootOf } from "./pack-project";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-pack-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const tool = (imports: string) => `${imports}\nexport default 1;\n`;

/** The names in a tar.gz, in order (ustar: a 512-byte header per entry, the name in its first 100). */
function tarNames(archive: Buffer): string[] {
  const tar = gunzipSync(archive);
  const names: string[] = [];
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const name = tar
      .subarray(offset, offset + 100)
      .toString("utf8")
      .replace(/\0.*$/s, "");
    if (!name) break;
    const size = Number.parseInt(
      tar
        .subarray(offset + 124, offset + 136)
        .toString("utf8")
        .trim() || "0",
      8,
    );
    names.push(name);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

describe("projectRootOf", () => {
  it("is the folder when it has a package.json, or when its code needs nothing above it", async () => {
    const root = writeFiles(path.join(scratch, "plain"), {
      "package.json": "{}",
      "own/package.json": "{}",
      "own/bot/tools/a.ts": tool('import x from "../../../elsewhere.js";'),
      "self/bot/tools/a.ts": tool(
        'import { z } from "zod";\nimport { defineTool } from "@cursor/bdk/tools";\nimport fs from "node:fs";\nimport "../lib/x.js";',
      ),
    });
    expect(await projectRootOf(path.join(root, "own"))).toBe(path.join(root, "own"));
    expect(await projectRootOf(path.join(root, "self"))).toBe(path.join(root, "self"));
  });

  it("is the nearest folder above with a package.json when the code imports above it or an npm package", async () => {
    const root = writeFiles(path.join(scratch, "mono"), {
      "package.json": "{}",
      "shared/x.ts": "export const x = 1;\n",
      "agents/a/bot/tools/a.ts": tool('import { x } from "../../../../shared/x.js";'),
      "agents/b/bot/tools/b.ts": tool('import ms from "ms";'),
    });
    expect(await projectRootOf(path.join(root, "agents/a"))).toBe(root);
    expect(await projectRootOf(path.join(root, "agents/b"))).toBe(root);
  });
});

describe("packProject", () => {
  it("packs the project root with a marker naming the agent folder, which the upload side reads back", async () => {
    const root = writeFiles(path.join(scratch, "marked"), {
      "package.json": "{}",
      "knowledge/faq.md": "x",
      "node_modules/ms/index.js": "x",
      "agents/a/bot/tools/a.ts": tool('import ms from "ms";'),
    });
    const packed = await packProject(path.join(root, "agents/a"));
    expect(packed).toMatchObject({ root, agentFolder: "agents/a" });
    expect(tarNames(packed.archive)).toEqual([
      projectMarkerFile,
      "agents/a/bot/tools/a.ts",
      "knowledge/faq.md",
      "package.json",
      // node_modules is there, so what the agent imports from it is bundled: here nothing (a type-only use).
      "agentfold-dependencies/manifest.json",
    ]);
    const extracted = writeFiles(path.join(scratch, "extracted"), {
      [projectMarkerFile]: JSON.stringify({ agentFolder: "agents/a" }),
      "agents/a/bot/instructions.md": "x",
    });
    expect(extractedAgentFolder(extracted)).toEqual({
      folderDir: path.join(extracted, "agents/a"),
      agentFolder: "agents/a",
    });
  });

  it("refuses a marker that points outside the upload", () => {
    const extracted = writeFiles(path.join(scratch, "escape"), {
      [projectMarkerFile]: JSON.stringify({ agentFolder: "../elsewhere" }),
    });
    expect(() => extractedAgentFolder(extracted)).toThrow(`${projectMarkerFile} must name the agent folder`);
  });
});
