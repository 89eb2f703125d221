// A project module sees its own path where the project is when the bundle runs (the sandbox's
// working directory), not where it was bundled, and a dependency sees what it saw before.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterAll, expect, it } from "vitest";
import { writeFiles } from "@/testing/folders";
import { modulePathDefines, modulePathsBanner, modulePathsPlugin } from "./module-paths";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-module-paths-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const project = {
  "knowledge/policy.md": "Answer within one working day.\n",
  "bot/tools/read.ts": [
    'import fs from "node:fs";',
    'import path from "node:path";',
    'import { fileURLToPath } from "node:url";',
    'import { seen } from "dep";',
    'import { ownDirname } from "../lib/own.js";',
    "export const paths = {",
    '  byUrl: fs.readFileSync(new URL("../../knowledge/policy.md", import.meta.url), "utf8"),',
    '  byDirname: fs.readFileSync(path.join(__dirname, "../../knowledge/policy.md"), "utf8"),',
    "  url: import.meta.url,",
    "  filename: __filename,",
    "  metaDirname: import.meta.dirname,",
    "  fromUrl: path.dirname(fileURLToPath(import.meta.url)),",
    "  ownDirname,",
    "  dep: seen(),",
    "};",
  ].join("\n"),
  // The ESM idiom: a module's own __dirname, from its import.meta.url.
  "bot/lib/own.ts": [
    'import path from "node:path";',
    'import { fileURLToPath } from "node:url";',
    "const __filename = fileURLToPath(import.meta.url);",
    "const __dirname = path.dirname(__filename);",
    "export const ownDirname = __dirname;",
  ].join("\n"),
  "node_modules/dep/package.json": JSON.stringify({ name: "dep", main: "index.js" }),
  "node_modules/dep/index.js":
    'exports.seen = () => (typeof __dirname === "undefined" ? "no __dirname" : __dirname);\n',
};

it("gives each project module its own path in the project it runs in", async () => {
  const built = writeFiles(path.join(scratch, "built"), project);
  const bundle = path.join(scratch, "out", "agent.mjs");
  await esbuild.build({
    entryPoints: [path.join(built, "bot/tools/read.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile: bundle,
    banner: { js: modulePathsBanner },
    define: modulePathDefines,
    plugins: [modulePathsPlugin(built)],
    logLevel: "silent",
  });
  // Served from another place than it was bundled in, as an upload is.
  const served = writeFiles(path.join(scratch, "served"), project);
  fs.rmSync(built, { recursive: true });
  const script = `import(${JSON.stringify(bundle)}).then((m) => console.log(JSON.stringify(m.paths)))`;
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: served,
    encoding: "utf8",
  });
  expect(JSON.parse(output)).toEqual({
    byUrl: "Answer within one working day.\n",
    byDirname: "Answer within one working day.\n",
    url: `file://${served}/bot/tools/read.ts`,
    filename: `${served}/bot/tools/read.ts`,
    metaDirname: `${served}/bot/tools`,
    fromUrl: `${served}/bot/tools`,
    ownDirname: `${served}/bot/lib`,
    dep: "no __dirname",
  });
});
