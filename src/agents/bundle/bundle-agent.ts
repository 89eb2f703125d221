// Bundles an agent version with esbuild into one ESM file that the sandbox runs: the sandbox
// runner plus every module of the folder, each evaluated lazily so one broken module cannot
// hide the others. The SDK, zod and `@opentelemetry/api` resolve to the platform's copies (the
// API's global providers are the ones the runner registers: src/agents/sandbox/otel-api.ts);
// anything else the upload cannot satisfy fails with `cannot resolve 'X' from <file>`.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import type { Diagnostic } from "@/agents/loader/diagnostics";
import { cursorHostedExport, cursorHostedImport, sdkImport, sdkModulePath } from "./aliases";
import { confineImports } from "./confine-imports";
import { dependencyManifestFile, isPackageSpecifier } from "./dependency-bundle";
import { modulePathDefines, modulePathsBanner, modulePathsPlugin } from "./module-paths";

// Bundled into the web app (uploads are loaded there), a module has no dirname of its own; `next
// start` always runs in the project root.
const platformSrc = import.meta.dirname
  ? path.resolve(import.meta.dirname, "../..")
  : path.join(/*turbopackIgnore: true*/ process.cwd(), "src");
const sdkDir = path.join(platformSrc, "agents", "sdk");
const runnerPath = path.join(platformSrc, "agents", "sandbox", "runner.ts");
const scriptRunnerPath = path.join(platformSrc, "agents", "sandbox", "agent-tool-script.ts");
const platformRequire = createRequire(import.meta.url);
// The API's ES module build (tree-shaken into the bundle): its package root is two folders above
// its main. Resolved when asked for, like zod: inside the web app's bundle a require.resolve of a
// literal name answers a module id, not a path.
const otelApiModule = (main: string) => path.resolve(path.dirname(main), "../..", "build/esm/index.js");

export type BundleResult = {
  ok: boolean;
  bundlePath: string;
  bytes: number;
  diagnostics: Diagnostic[];
  /** The folder's own source files in the bundle (relative; no dependencies, no authoring package). */
  sources?: string[];
};

function entrySource(files: string[]): string {
  const loaders = files.map((file) => `  ${JSON.stringify(file)}: () => import(${JSON.stringify(`./${file}`)}),`);
  return [`import { startSandbox } from ${JSON.stringify(runnerPath)};`, "startSandbox({", ...loaders, "});"].join(
    "\n",
  );
}

const platformResolver: esbuild.Plugin = {
  name: "agentfold-platform",
  setup(build) {
    build.onResolve({ filter: sdkImport }, (args) => {
      const resolved = sdkModulePath(sdkDir, args.path);
      if (resolved) return { path: resolved };
      const text =
        cursorHostedImport(args.path) ?? `cannot resolve '${args.path}': no such module in the authoring package`;
      return { errors: [{ text }] };
    });
    build.onResolve({ filter: /^zod(\/.*)?$/ }, (args) => ({ path: platformRequire.resolve(args.path) }));
    build.onResolve({ filter: /^@opentelemetry\/api$/ }, (args) => ({
      path: otelApiModule(platformRequire.resolve(args.path)),
    }));
  },
};

/** `projectDir`: what the upload holds (the folder, or the project above it: pack-project.ts). */
function toDiagnostic(message: esbuild.Message, folderDir: string, projectDir = folderDir): Diagnostic {
  const file = message.location?.file
    ? path.relative(folderDir, path.resolve(folderDir, message.location.file))
    : undefined;
  const unresolved = message.text.match(/^Could not resolve "([^"]+)"/);
  const missing = missingSdkExport(message, folderDir);
  const text = unresolved ? unresolvedImport(unresolved[1]!, file, folderDir, projectDir) : (missing ?? message.text);
  return { level: "error", file, ...(message.location ? { line: message.location.line } : {}), message: text };
}

/** An import esbuild found nothing for; a relative one above the project says why: it is not uploaded. */
function unresolvedImport(specifier: string, file: string | undefined, folderDir: string, projectDir: string) {
  const from = file ? path.dirname(path.join(folderDir, file)) : folderDir;
  const target = path.resolve(from, specifier);
  const isOutside =
    (specifier.startsWith(".") || path.isAbsolute(specifier)) &&
    !target.startsWith(path.resolve(projectDir) + path.sep);
  // Packages bundled at deploy are those the author's node_modules held then: a newer import is not among them.
  if (isPackageSpecifier(specifier) && fs.existsSync(path.join(projectDir, dependencyManifestFile)))
    return (
      `cannot resolve '${specifier}' from ${file}: it is not among the packages bundled from node_modules at deploy ` +
      "(run `npm install` so node_modules has it, then deploy again)"
    );
  if (!isOutside) return `cannot resolve '${specifier}' from ${file}`;
  return (
    `cannot resolve '${specifier}' from ${file}: it is outside the project, and only the project is uploaded ` +
    '(the agent folder, or the nearest folder above it with a package.json: docs/agent-folders.md, "What is uploaded")'
  );
}

/** esbuild names the platform's own file for a name the authoring package lacks; the author
 * wrote a public specifier (`@cursor/bdk/evals`), which is what the diagnostic should say. */
function missingSdkExport(message: esbuild.Message, folderDir: string): string | undefined {
  const match = /^No matching export in "([^"]+)" for import "([^"]+)"/.exec(message.text);
  if (!match) return undefined;
  // esbuild's paths are relative to the build's working directory, the folder.
  const module = path.resolve(folderDir, match[1]!);
  if (!module.startsWith(sdkDir + path.sep)) return undefined;
  const written =
    message.location && writtenSpecifier(path.resolve(folderDir, message.location.file), message.location);
  const subpath = path.relative(sdkDir, module).replace(/\.ts$/, "");
  const specifier =
    written && sdkImport.test(written) ? written : `agentfold${subpath === "index" ? "" : `/${subpath}`}`;
  return (
    cursorHostedExport(match[2]!, specifier) ??
    `'${match[2]}' is not exported by ${specifier} on this platform (docs/compatibility.md lists what is)`
  );
}

/** The specifier of the import statement a name at `at` belongs to: the first `from "…"` after
 * it, however many lines the statement spans (`import {\n  x,\n} from "@cursor/bdk/evals"`). */
function writtenSpecifier(file: string, at: esbuild.Location): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const lines = text.split("\n");
  const line = lines[at.line - 1] ?? "";
  // The loaded text may have more in front on the first line than the file (module-paths.ts).
  const start = Math.max(0, at.column - (at.lineText.length - line.length));
  const rest = [line.slice(start), ...lines.slice(at.line)].join("\n");
  return /^[^;]*?\bfrom\s*["']([^"']+)["']/.exec(rest)?.[1];
}

/** `nodePaths`: where packages the folder has no node_modules for are found (its installed
 * lockfile: install-dependencies.ts); `projectDir`: the upload's root. Imports resolve to these,
 * the authoring package and the runner only (confine-imports.ts). */
const buildOptions = (folderDir: string, nodePaths: string[] = [], projectDir = folderDir): esbuild.BuildOptions => ({
  nodePaths,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // CommonJS dependencies inside an ESM bundle still call require() for Node's builtins.
  banner: {
    js: 'import { createRequire as __agentfoldRequire } from "node:module"; const require = __agentfoldRequire(import.meta.url);',
  },
  plugins: [
    platformResolver,
    confineImports({
      allowed: [projectDir, ...nodePaths, path.join(platformSrc, "agents")],
      trusted: [platformSrc, path.join(platformSrc, "..", "node_modules")],
    }),
  ],
  logLevel: "silent",
  absWorkingDir: folderDir,
});

/** One standalone script per `execution: "agent"` tool, for the session workspace. */
export async function bundleAgentToolScripts(options: {
  folderDir: string;
  projectDir?: string;
  tools: { name: string; file: string }[];
  outDir: string;
  nodePaths?: string[];
}): Promise<string[]> {
  const outputs: string[] = [];
  for (const tool of options.tools) {
    const outfile = path.join(options.outDir, "agent-tools", `${tool.name}.mjs`);
    const contents = [
      `import tool from ${JSON.stringify(`./${tool.file}`)};`,
      `import { runAgentToolScript } from ${JSON.stringify(scriptRunnerPath)};`,
      "await runAgentToolScript(tool);",
    ].join("\n");
    await esbuild.build({
      ...buildOptions(options.folderDir, options.nodePaths, options.projectDir),
      stdin: { contents, resolveDir: options.folderDir, sourcefile: `${tool.name}-script.ts`, loader: "ts" },
      outfile,
    });
    outputs.push(outfile);
  }
  return outputs;
}

export async function bundleAgent(options: {
  folderDir: string;
  /** The upload's root when it is above the folder (pack-project.ts). */
  projectDir?: string;
  moduleFiles: string[];
  outDir: string;
  nodePaths?: string[];
}): Promise<BundleResult> {
  const { folderDir, moduleFiles, outDir } = options;
  const bundlePath = path.join(outDir, "agent.mjs");
  try {
    const base = buildOptions(folderDir, options.nodePaths, options.projectDir);
    const result = await esbuild.build({
      ...base,
      banner: { js: `${base.banner!.js}\n${modulePathsBanner}` },
      define: modulePathDefines,
      plugins: [...base.plugins!, modulePathsPlugin(options.projectDir ?? folderDir)],
      stdin: {
        contents: entrySource(moduleFiles),
        resolveDir: folderDir,
        sourcefile: "agentfold-entry.ts",
        loader: "ts",
      },
      outfile: bundlePath,
      sourcemap: "linked",
      metafile: true,
    });
    const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
    // Inputs are relative to absWorkingDir, the folder; what lies outside it is not the agent's.
    const sources = Object.keys(result.metafile.inputs).filter(
      (input) =>
        !input.startsWith("..") &&
        !input.includes("node_modules/") &&
        !input.includes(":") &&
        fs.existsSync(path.join(folderDir, input)),
    );
    return {
      ok: true,
      bundlePath,
      bytes,
      sources,
      diagnostics: result.warnings.map((w) => ({
        ...toDiagnostic(w, folderDir, options.projectDir),
        level: "warning",
      })),
    };
  } catch (error) {
    const failure = error as esbuild.BuildFailure;
    if (!Array.isArray(failure.errors)) throw error;
    const diagnostics = failure.errors.map((e) => toDiagnostic(e, folderDir, options.projectDir));
    return { ok: false, bundlePath, bytes: 0, diagnostics };
  }
}
