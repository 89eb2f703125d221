// Loads an agent folder from disk end to end: static discovery, bundling, and a sandboxed look
// at every module. The agent's own code runs only inside the sandbox process.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundleAgent, bundleAgentToolScripts } from "@/agents/bundle/bundle-agent";
import { readDependencyBundle } from "@/agents/bundle/dependency-bundle";
import { installDependencies, type InstallOptions } from "@/agents/bundle/install-dependencies";
import { createSandbox } from "@/agents/sandbox/sandbox";
import type { Diagnostic, Diagnostics } from "./diagnostics";
import { discoverAgent } from "./discover";
import { moduleFiles, type AgentLayout } from "./layout";
import { checkChannelSupport, checkExtensionMounts } from "./channel-support";
import { buildManifest, type AgentManifest } from "./manifest";
import { diskSource } from "./source";
import { fieldLines, placeDiagnostics } from "./source-lines";
import type { ModelRouting } from "@/agents/runtime/models/model-choice";

export type LoadedAgent = {
  ok: boolean;
  manifest?: AgentManifest;
  diagnostics: Diagnostic[];
  bundlePath?: string;
  timings: { discoverMs: number; bundleMs: number; describeMs: number };
};

type LoadOptions = {
  folderDir: string;
  folderName?: string;
  /** The project root holding the folder, when it is above it (pack-project.ts): its package.json
   * and lockfile are the agent's. */
  projectDir?: string;
  /** Where the bundle is written (created if missing). */
  outDir: string;
  /** An upload's npm dependencies are installed from its lockfile into this cache (the folder
   * brings no node_modules); absent, a folder on disk resolves its own node_modules. */
  dependencies?: InstallOptions;
  /** The instance's default model and aliases, which decide what `model` runs on (warnings). */
  models?: ModelRouting;
};

export async function loadAgentFolder(options: LoadOptions): Promise<LoadedAgent> {
  const { folderDir, outDir } = options;
  const projectDir = options.projectDir ?? folderDir;
  const folderName = options.folderName ?? path.basename(path.resolve(folderDir));
  const timings = { discoverMs: 0, bundleMs: 0, describeMs: 0 };
  let started = performance.now();
  const { layout, diagnostics } = await discoverAgent(diskSource(folderDir), folderName);
  timings.discoverMs = performance.now() - started;
  const finish = (extra: Partial<LoadedAgent> = {}): LoadedAgent => {
    placeDiagnostics(diagnostics.items, fieldLines(folderDir));
    return { ok: !diagnostics.hasErrors, diagnostics: diagnostics.items, timings, ...extra };
  };
  if (!layout) return finish();

  started = performance.now();
  fs.mkdirSync(outDir, { recursive: true });
  // The sandbox's user reads the bundle (a temporary outDir is made private to us).
  fs.chmodSync(outDir, 0o755);
  const nodePaths = await dependencyPaths(projectDir, options.dependencies, diagnostics);
  if (!nodePaths) return finish();
  const bundling = { folderDir, projectDir, outDir, nodePaths };
  const bundle = await bundleReportingAll(bundling, moduleFiles(layout), diagnostics);
  if (!bundle) return finish();
  timings.bundleMs = performance.now() - started;

  started = performance.now();
  const manifest = await describe(bundling, bundle.bundlePath, layout, diagnostics, options.models);
  timings.describeMs = performance.now() - started;
  // An incomplete bundle was only for diagnostics: the version has no usable bundle.
  return manifest && bundle.isComplete ? finish({ manifest, bundlePath: bundle.bundlePath }) : finish();
}

type Bundling = { folderDir: string; projectDir: string; outDir: string; nodePaths: string[] };

/** Where the agent's npm packages resolve from; undefined when they cannot (the diagnostics say why). */
async function dependencyPaths(
  projectDir: string,
  dependencies: InstallOptions | undefined,
  diagnostics: Diagnostics,
): Promise<string[] | undefined> {
  // Packages `deploy` bundled on the author's machine: resolved from the upload, nothing installed.
  const bundled = readDependencyBundle(projectDir);
  if (bundled) {
    for (const diagnostic of bundled.diagnostics) diagnostics.add(diagnostic);
    if (bundled.diagnostics.some((d) => d.level === "error")) return undefined;
    return [bundled.nodePath];
  }
  if (!dependencies || fs.existsSync(path.join(projectDir, "node_modules"))) return [];
  const installed = await installDependencies(projectDir, dependencies);
  for (const diagnostic of installed.diagnostics) diagnostics.add(diagnostic);
  // Missing dependencies would be told again by every import of them: once is enough.
  if (installed.diagnostics.length > 0) return undefined;
  return installed.nodeModules ? [installed.nodeModules] : [];
}

/**
 * The agent's bundle, with every module's problems reported: the modules that did build are
 * bundled again, so their own problems are reported in the same run, and again while that finds
 * more, since esbuild reports a missing export only once every import resolved. Undefined when
 * nothing more builds.
 */
async function bundleReportingAll(
  bundling: Bundling,
  files: string[],
  diagnostics: Diagnostics,
): Promise<{ bundlePath: string; isComplete: boolean } | undefined> {
  let bundle = await bundleAgent({ ...bundling, moduleFiles: files });
  const isComplete = bundle.ok;
  let rest = files;
  while (!bundle.ok) {
    for (const diagnostic of bundle.diagnostics) diagnostics.add(diagnostic);
    const broken = new Set(bundle.diagnostics.map((d) => d.file));
    const built = rest.filter((file) => !broken.has(file));
    if (built.length === rest.length) return undefined;
    rest = built;
    bundle = await bundleAgent({ ...bundling, moduleFiles: rest });
  }
  for (const diagnostic of bundle.diagnostics) diagnostics.add(diagnostic);
  return { bundlePath: bundle.bundlePath, isComplete };
}

/** Every module looked at in a sandbox, and the manifest built from what they export; undefined
 * when the sandbox could not load them (a diagnostic says why). */
async function describe(
  bundling: Bundling,
  bundlePath: string,
  layout: AgentLayout,
  diagnostics: Diagnostics,
  models: ModelRouting | undefined,
): Promise<AgentManifest | undefined> {
  const { folderDir, projectDir } = bundling;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-describe-"));
  // The project is the working directory, as in a turn: a module may read its files as it loads.
  const sandbox = createSandbox({ bundlePath, projectDir, writableDirs: [scratch], defaultTimeoutMs: 30_000 });
  try {
    const reports = await sandbox.call("describe", {});
    const manifest = buildManifest(layout, reports, diagnostics, await instructionTexts(folderDir, layout), {
      routing: models,
      folderDir,
    });
    const lineOf = fieldLines(folderDir);
    checkChannelSupport(diagnostics, manifest.channels, lineOf);
    checkExtensionMounts(diagnostics, layout, lineOf);
    const agentTools = manifest.tools.filter((tool) => tool.execution === "agent");
    if (agentTools.length > 0) await bundleAgentToolScripts({ ...bundling, tools: agentTools });
    const folder = path.relative(projectDir, folderDir).split(path.sep).join("/");
    if (folder) manifest.folder = folder;
    return manifest;
  } catch (error) {
    diagnostics.error(undefined, `loading the agent's modules failed: ${(error as Error).message}`);
    return undefined;
  } finally {
    await sandbox.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function sourceTexts(folderDir: string, files: string[]): Promise<Map<string, string>> {
  const texts = await Promise.all(files.map((file) => fs.promises.readFile(path.join(folderDir, file), "utf8")));
  return new Map(files.map((file, index) => [file, texts[index]!]));
}

/** Markdown instruction files of the agent and its subagents, read once for the manifest. */
async function instructionTexts(folderDir: string, layout: AgentLayout): Promise<Map<string, string>> {
  const refs = [layout.instructions, ...layout.subagents.map((s) => s.instructions)];
  return sourceTexts(
    folderDir,
    refs.flatMap((ref) => (ref && ref.form !== "module" ? ref.files : [])),
  );
}
