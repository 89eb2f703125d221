// Packages bundled on the author's machine (src/agents/bundle/bundle-dependencies.ts), read back
// as the server reads an upload: extracted, then resolved through the bundle's manifest.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { extractUpload } from "./intake/extract-upload";
import { writeFiles } from "@/testing/folders";
import { dependencyBundleFolder, readDependencyBundle } from "@/agents/bundle/dependency-bundle";
import { bundleDependencies } from "@/agents/bundle/bundle-dependencies";
import { packProject } from "@/agents/bundle/pack-project";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-bundle-deps-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A project as an author has it after `npm install`: an ES module package (default and named
 * exports, `import`-only), a CommonJS one that requires zod, and a fake `@cursor/bdk` that must
 * never be bundled. The project is `"type": "module"`, which changes how esbuild reads defaults. */
const project = (name: string, tool: string, more: Record<string, string> = {}) =>
  writeFiles(path.join(scratch, name), {
    "package.json": JSON.stringify({ type: "module", dependencies: { "esm-pkg": "1.0.0", "cjs-pkg": "1.0.0" } }),
    "bot/instructions.md": "x",
    "bot/tools/t.ts": tool,
    "node_modules/esm-pkg/package.json": JSON.stringify({ type: "module", exports: { import: "./index.js" } }),
    "node_modules/esm-pkg/index.js":
      'export default function greet() { return "hi"; }\nexport const named = "named";\n',
    "node_modules/cjs-pkg/package.json": JSON.stringify({ name: "cjs-pkg" }),
    "node_modules/cjs-pkg/index.js":
      'const { z } = require("zod");\nmodule.exports = { shout: (s) => z.string().parse(s).toUpperCase() };\n',
    "node_modules/@cursor/bdk/package.json": JSON.stringify({ name: "@cursor/bdk", main: "index.js" }),
    "node_modules/@cursor/bdk/tools.js": 'throw new Error("the author\'s @cursor/bdk was bundled");\n',
    ...more,
  });

const usesBoth = [
  'import { defineTool } from "@cursor/bdk/tools";',
  'import greet, { named } from "esm-pkg";',
  'import cjs, { shout } from "cjs-pkg";',
  "export const seen = [greet(), named, shout('a'), typeof cjs.shout];",
  'export default defineTool({ description: "", execute: async () => 1 });',
].join("\n");

/** The upload extracted as the platform does, and a module importing like the tool, bundled with
 * the platform's node path and run: what the agent's code would see. */
async function runOnPlatform(archive: Buffer, importer: string): Promise<unknown> {
  const source = path.join(fs.mkdtempSync(path.join(scratch, "upload-")), "source");
  await extractUpload({ archive, destDir: source });
  const bundled = readDependencyBundle(source)!;
  expect(bundled.diagnostics).toEqual([]);
  fs.writeFileSync(path.join(source, "probe.ts"), importer);
  const outfile = path.join(source, "probe.mjs");
  await esbuild.build({
    entryPoints: [path.join(source, "probe.ts")],
    nodePaths: [bundled.nodePath],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    logLevel: "silent",
    // The platform resolves zod to its own copy (bundle-agent.ts); here, this checkout's.
    plugins: [
      {
        name: "zod",
        setup: (build) =>
          build.onResolve({ filter: /^zod$/ }, () => ({ path: createRequire(import.meta.url).resolve("zod") })),
      },
    ],
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  });
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", `import("${outfile}")`]).toString());
}

describe("bundleDependencies, through packProject", () => {
  it("bundles what the modules import; the platform reads it with the semantics of the packages themselves", async () => {
    const dir = project("both", usesBoth);
    const packed = await packProject(dir);
    expect(packed.dependencies).toEqual({
      version: 1,
      packages: ["esm-pkg", "cjs-pkg"],
      bytes: expect.any(Number),
      diagnostics: [],
    });
    const printed = await runOnPlatform(
      packed.archive,
      [
        'import greet, { named } from "esm-pkg";',
        'import cjs, { shout } from "cjs-pkg";',
        "console.log(JSON.stringify([greet(), named, shout('a'), typeof cjs.shout]));",
      ].join("\n"),
    );
    expect(printed).toEqual(["hi", "named", "A", "function"]);
    const names = await extractedNames(packed.archive);
    expect(names.filter((name) => name.startsWith(`${dependencyBundleFolder}/node_modules/`))).toEqual([
      `${dependencyBundleFolder}/node_modules/cjs-pkg/index.js`,
      `${dependencyBundleFolder}/node_modules/esm-pkg/index.js`,
    ]);
    // The platform provides these: neither the author's @cursor/bdk nor zod is in the bundle.
    const bundledText = names
      .filter((name) => name.startsWith(`${dependencyBundleFolder}/modules/`))
      .map((name) => fs.readFileSync(path.join(extractedRoot, name), "utf8"))
      .join("\n");
    expect(bundledText).not.toContain("the author's @cursor/bdk was bundled");
    expect(bundledText).toContain('from "zod"');
    expect(bundledText).not.toContain("ZodError");
  });

  it("reuses the packages' build while nothing it read has changed (dev packs on every save)", async () => {
    const dir = project("reuse", usesBoth);
    const bundle = () => bundleDependencies({ root: dir, folderDir: dir });
    const first = await bundle();
    expect(first.isReused).toBe(false);
    const again = await bundle();
    expect(again.isReused).toBe(true);
    expect(again.entries).toEqual(first.entries);
    const moduleText = (entries: { name: string; content: Buffer }[]) =>
      entries
        .filter((entry) => entry.name.startsWith(`${dependencyBundleFolder}/modules/`))
        .map((entry) => entry.content.toString())
        .join("\n");

    // A package's file changed (an install, an edit of a linked package): built again, with it.
    fs.writeFileSync(
      path.join(dir, "node_modules/esm-pkg/index.js"),
      'export default function greet() { return "hello again"; }\nexport const named = "named";\n',
    );
    const edited = await bundle();
    expect(edited.isReused).toBe(false);
    expect(moduleText(edited.entries)).toContain("hello again");
    // An install rewrites npm's lockfile in node_modules, even when no file read changed size.
    fs.writeFileSync(path.join(dir, "node_modules/.package-lock.json"), "{}");
    expect((await bundle()).isReused).toBe(false);
    expect((await bundle()).isReused).toBe(true);

    // Another set of imports is another build.
    fs.writeFileSync(path.join(dir, "bot/tools/t.ts"), 'import { named } from "esm-pkg";\nexport default named;\n');
    const fewer = await bundle();
    expect(fewer.isReused).toBe(false);
    expect(fewer.manifest.packages).toEqual(["esm-pkg"]);
  });

  it("tells a package that does not bundle by its file, and the platform stops there", async () => {
    const dir = project("broken", 'import { named } from "esm-pkg";\nexport default named;\n', {
      "node_modules/esm-pkg/index.js": 'import gone from "not-installed";\nexport const named = gone;\n',
    });
    const packed = await packProject(dir);
    expect(packed.dependencies?.packages).toEqual([]);
    expect(packed.dependencies?.diagnostics).toEqual([
      {
        level: "error",
        file: "node_modules/esm-pkg/index.js",
        line: 1,
        message: expect.stringMatching(/^bundling the npm packages it imports: Could not resolve "not-installed"/),
      },
    ]);
  });

  it("bundles a workspace package its node_modules links to, and follows a tsconfig path to the author's file", async () => {
    const dir = project(
      "workspace",
      'import { lib } from "@me/lib";\nimport { own } from "own/x";\nexport default [lib, own];\n',
      {
        "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "own/*": ["src/*"] } } }),
        "src/x.ts": 'import { named } from "esm-pkg";\nexport const own = named;\n',
        "../packages/lib/package.json": JSON.stringify({ name: "@me/lib", main: "index.js" }),
        "../packages/lib/index.js": 'exports.lib = "lib";\n',
      },
    );
    fs.mkdirSync(path.join(dir, "node_modules/@me"));
    fs.symlinkSync(path.join(scratch, "packages/lib"), path.join(dir, "node_modules/@me/lib"));
    expect((await packProject(dir)).dependencies?.packages).toEqual(["@me/lib", "esm-pkg"]);
  });

  it("leaves out what it cannot resolve (the platform's bundler names the import) and bundles nothing without node_modules", async () => {
    const dir = project("missing", 'import { x } from "left-pad";\nexport default x;\n');
    expect((await packProject(dir)).dependencies).toMatchObject({ packages: [], diagnostics: [] });
    fs.rmSync(path.join(dir, "node_modules"), { recursive: true });
    fs.mkdirSync(path.join(dir, dependencyBundleFolder));
    fs.writeFileSync(path.join(dir, dependencyBundleFolder, "manifest.json"), "{}");
    const packed = await packProject(dir);
    expect(packed.dependencies).toBeUndefined();
    // A folder of that name on disk is not the author's to upload.
    expect(await extractedNames(packed.archive)).not.toContain(`${dependencyBundleFolder}/manifest.json`);
  });
});

describe("readDependencyBundle", () => {
  it("refuses a manifest deploy did not write, and a bundle over the limit", () => {
    const root = writeFiles(path.join(scratch, "forged"), {
      [`${dependencyBundleFolder}/manifest.json`]: JSON.stringify({ version: 1, packages: ["../../etc"], bytes: 0 }),
    });
    expect(readDependencyBundle(root)?.diagnostics).toEqual([
      { level: "error", message: expect.stringContaining("agentfold-dependencies/manifest.json is not what") },
    ]);
    fs.writeFileSync(
      path.join(root, dependencyBundleFolder, "manifest.json"),
      JSON.stringify({ version: 1, packages: [], bytes: 0, diagnostics: [] }),
    );
    fs.writeFileSync(path.join(root, dependencyBundleFolder, "big.mjs"), Buffer.alloc(26 * 1024 * 1024));
    expect(readDependencyBundle(root)?.diagnostics).toEqual([
      { level: "error", message: expect.stringContaining("bundle to 26.0 MiB, over the 25.0 MiB") },
    ]);
    expect(readDependencyBundle(scratch)).toBeUndefined();
  });
});

let extractedRoot = "";
async function extractedNames(archive: Buffer): Promise<string[]> {
  extractedRoot = path.join(fs.mkdtempSync(path.join(scratch, "names-")), "x");
  const extracted = await extractUpload({ archive, destDir: extractedRoot });
  return extracted.files.map((file) => file.path);
}
