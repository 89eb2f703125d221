// `agentfold deploy` on the author's machine: the npm packages the agent's modules import, bundled
// from the author's node_modules into the upload's `agentfold-dependencies/` (dependency-bundle.ts),
// so the platform installs nothing. One esbuild build with an entry per imported specifier and
// shared chunks, so a package two specifiers reach is evaluated once; the platform's imports stay
// imports for the platform to provide. Problems name the file they are in; an import that
// resolves nowhere is left to the platform's bundler, which reports it at the author's line.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import type { Diagnostic } from "@/agents/loader/diagnostics";
import { discoverAgent } from "@/agents/loader/discover";
import { moduleFiles } from "@/agents/loader/layout";
import { diskSource } from "@/agents/loader/source";
import { reuseOrBuild } from "./dependency-build-cache";
import {
  type DependencyManifest,
  dependencyBundleFolder,
  dependencyManifestFile,
  isPackageSpecifier,
  isPlatformPackage,
  isProvided,
  maxDependencyBundleBytes,
  tooLarge,
} from "./dependency-bundle";

export type BundledDependencies = {
  /** Archive entries under `agentfold-dependencies/`, the manifest included. */
  entries: { name: string; content: Buffer }[];
  manifest: DependencyManifest;
  /** The packages' build was this process's last one for the same imports, unchanged since. */
  isReused?: boolean;
};

/** Whether a bare import is a package: its name is in a node_modules folder on the way up from the
 * importer (a workspace package's link counts, wherever it points); else a tsconfig path found it. */
function isInstalledPackage(specifier: string, resolveDir: string): boolean {
  const segments = specifier.split("/");
  const name = segments.slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
  for (let dir = resolveDir; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "node_modules", name))) return true;
    if (dir === path.dirname(dir)) return false;
  }
}

export async function bundleDependencies(options: { root: string; folderDir: string }): Promise<BundledDependencies> {
  const { root, folderDir } = options;
  const { layout } = await discoverAgent(diskSource(folderDir), path.basename(folderDir));
  const imported = await importedPackages(folderDir, layout ? moduleFiles(layout) : []);
  const withManifest = (entries: BundledDependencies["entries"], manifest: DependencyManifest) => ({
    entries: [
      ...entries,
      { name: dependencyManifestFile, content: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
    ],
    manifest,
  });
  if (imported.size === 0) return withManifest([], { version: 1, packages: [], bytes: 0, diagnostics: [] });
  const { result: built, isReused } = await reuseOrBuild(root, imported, () =>
    buildPackages({ root, folderDir, imported }),
  );
  const bytes = built.entries.reduce((sum, entry) => sum + entry.content.byteLength, 0);
  const diagnostics = bytes > maxDependencyBundleBytes ? [error(tooLarge(bytes))] : built.diagnostics;
  // A bundle with problems is left out whole: the version is invalid with them either way.
  if (diagnostics.length > 0) return withManifest([], { version: 1, packages: [], bytes: 0, diagnostics });
  return {
    ...withManifest(built.entries, { version: 1, packages: [...imported.keys()], bytes, diagnostics: [] }),
    isReused,
  };
}

/** Every package specifier the modules import (through the folder's own files), with the file
 * it resolves to from the importing file, as the platform's bundler would resolve it. */
async function importedPackages(folderDir: string, files: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const scan: esbuild.Plugin = {
    name: "agentfold-scan",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.kind === "entry-point" || args.pluginData === "scan") return undefined;
        if (isProvided(args.path)) return { external: true };
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: "scan",
        });
        if (resolved.errors.length > 0 || resolved.external) return { external: true };
        // A tsconfig path or the package's `#imports` reaching the author's own files: followed.
        if (!isPackageSpecifier(args.path) || !isInstalledPackage(args.path, args.resolveDir))
          return { path: resolved.path, namespace: resolved.namespace };
        if (!found.has(args.path)) found.set(args.path, resolved.path);
        return { external: true };
      });
    },
  };
  const scanOf = (entries: string[]) =>
    esbuild.build({
      entryPoints: entries.map((file) => path.join(folderDir, file)),
      bundle: true,
      write: false,
      outdir: path.join(os.tmpdir(), "agentfold-scan"),
      format: "esm",
      platform: "node",
      logLevel: "silent",
      absWorkingDir: folderDir,
      plugins: [scan],
    });
  try {
    await scanOf(files);
  } catch {
    // A module that does not build (the platform's bundler reports why): the others' imports still count.
    for (const file of files) await scanOf([file]).catch(() => undefined);
  }
  return found;
}

async function buildPackages(options: { root: string; folderDir: string; imported: Map<string, string> }): Promise<{
  result: { entries: { name: string; content: Buffer }[]; diagnostics: Diagnostic[] };
  inputs?: string[];
}> {
  const { root, folderDir, imported } = options;
  const outdir = path.join(root, dependencyBundleFolder);
  const targets = [...new Set(imported.values())];
  const provided: esbuild.Plugin = {
    name: "agentfold-provided",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (!isPlatformPackage(args.path)) return undefined;
        if (args.kind !== "require-call") return { path: args.path, external: true };
        // A CommonJS package's require() of the SDK or zod: an ESM import the platform resolves.
        return { path: args.path, namespace: "agentfold-provided" };
      });
      build.onLoad({ filter: /.*/, namespace: "agentfold-provided" }, (args) => ({
        contents: `export * from ${JSON.stringify(args.path)};`,
        resolveDir: root,
      }));
    },
  };
  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  try {
    result = await esbuild.build({
      entryPoints: targets.map((file, index) => ({ in: file, out: `modules/${index}` })),
      bundle: true,
      splitting: true,
      write: false,
      metafile: true,
      format: "esm",
      platform: "node",
      target: "node20",
      outExtension: { ".js": ".mjs" },
      chunkNames: "modules/chunk-[hash]",
      outdir,
      absWorkingDir: root,
      logLevel: "silent",
      plugins: [provided],
    });
  } catch (failure) {
    const errors = (failure as esbuild.BuildFailure).errors;
    if (!Array.isArray(errors)) throw failure;
    return { result: { entries: [], diagnostics: errors.map((message) => fromEsbuild(message, root, folderDir)) } };
  }
  const entries = result.outputFiles.map((file) => ({
    name: `${dependencyBundleFolder}/${path.relative(outdir, file.path).split(path.sep).join("/")}`,
    content: Buffer.from(file.contents),
  }));
  const outputOf = new Map(
    Object.entries(result.metafile.outputs).flatMap(([output, meta]) =>
      meta.entryPoint ? [[path.resolve(root, meta.entryPoint), { output, exports: meta.exports }]] : [],
    ),
  );
  const formatOf = (file: string) =>
    result.metafile.inputs[path.relative(root, file).split(path.sep).join("/")]?.format;
  for (const [specifier, file] of imported) {
    const built = outputOf.get(file);
    if (!built)
      return {
        result: { entries: [], diagnostics: [error(`bundling '${specifier}' (${file}) made no module of it`)] },
      };
    const { output, exports } = built;
    const from = `${dependencyBundleFolder}/node_modules/${specifier}`;
    const module = JSON.stringify(path.posix.relative(from, output.split(path.sep).join("/")));
    // An ES module keeps its exports as they are; a CommonJS one is its module.exports, which the
    // importing module's interop reads as when the platform bundles the package itself.
    const shim =
      formatOf(file) === "esm"
        ? `export * from ${module};\n${exports.includes("default") ? `export { default } from ${module};\n` : ""}`
        : `module.exports = require(${module}).default;\n`;
    entries.push({ name: `${from}/index.js`, content: Buffer.from(shim) });
  }
  // The shims' own package scope: the project's `"type": "module"` would make a CommonJS shim ESM.
  entries.push({ name: `${dependencyBundleFolder}/package.json`, content: Buffer.from('{ "type": "commonjs" }\n') });
  // What it read, for reuseOrBuild: files (not the platform's packages, which are in a namespace).
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.includes(":"))
    .map((input) => path.resolve(root, input));
  return { result: { entries, diagnostics: [] }, inputs };
}

function fromEsbuild(message: esbuild.Message, root: string, folderDir: string): Diagnostic {
  const where = message.location;
  const file = where ? path.relative(folderDir, path.resolve(root, where.file)).split(path.sep).join("/") : undefined;
  return {
    level: "error",
    ...(file ? { file } : {}),
    ...(where ? { line: where.line } : {}),
    message: `bundling the npm packages it imports: ${message.text}${isNative(message) ? nativeHint : ""}`,
  };
}

const isNative = (message: esbuild.Message) => /No loader is configured for "\.node" files/.test(message.text);
const nativeHint = " (a native addon is built for one machine and does not bundle; the platform has no way to run it)";

function error(message: string): Diagnostic {
  return { level: "error", message };
}
