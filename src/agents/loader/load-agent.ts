// Loads an agent folder from disk end to end: static discovery, bundling, and a sandboxed look
// at every module. The agent's own code runs only inside the sandbox process.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundleAgent, bundleAgentToolScripts } from "@/agents/bundle/bundle-agent";
import { readDependencyBundle } from "@/agents/bundle/dependency-bundle";
import { installDependencies, type InstallOptions } from "@/agents/bundle/install-dependencies";
import { createSandbox } from "@/agents/sandbox/sandbox";
import type { Diagnostic } from "./diagnostics";
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

export async function loadAgentFolder(options: {
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
}): Promise<LoadedAgent> {
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
  const nodePaths: string[] = [];
  // Packages `deploy` bundled on the author's machine: resolved from the upload, nothing installed.
  const bundled = readDependencyBundle(projectDir);
  if (bundled) {
    for (const diagnostic of bundled.diagnostics) diagnostics.add(diagnostic);
    if (bundled.diagnostics.some((d) => d.level === "error")) return finish();
    nodePaths.push(bundled.nodePath);
  } else if (options.dependencies && !fs.existsSync(path.join(projectDir, "node_modules"))) {
    const installed = await installDependencies(projectDir, options.dependencies);
    for (const diagnostic of installed.diagnostics) diagnostics.add(diagnostic);
    // Missing dependencies would be told again by every import of them: once is enough.
    if (installed.diagnostics.length > 0) return finish();
    if (installed.nodeModules) nodePaths.push(installed.nodeModules);
  }
  const files = moduleFiles(layout);
  let bundle = await bundleAgent({ folderDir, projectDir, moduleFiles: files, outDir, nodePaths });
  const isComplete = bundle.ok;
  let rest = files;
  // Bundle the modules that did build, so their own problems are reported in the same run; again
  // while that finds more, since esbuild reports a missing export only once every import resolved.
  while (!bundle.ok) {
    for (const diagnostic of bundle.diagnostics) diagnostics.add(diagnostic);
    const broken = new Set(bundle.diagnostics.map((d) => d.file));
    const built = rest.filter((file) => !broken.has(file));
    if (built.length === rest.length) return finish();
    rest = built;
    bundle = await bundleAgent({ folderDir, projectDir, moduleFiles: rest, outDir, nodePaths });
  }
  for (const diagnostic of bundle.diagnostics) diagnostics.add(diagnostic);
  timings.bundleMs = performance.now() - started;

  started = performance.now();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-describe-"));
  // The project is the working directory, as in a turn: a module may read its files as it loads.
  const sandbox = createSandbox({
    bundlePath: bundle.bundlePath,
    projectDir,
    writableDirs: [scratch],
    defaultTimeoutMs: 30_000,
  });
  try {
    const reports = await sandbox.call("describe", {});
    const manifest = buildManifest(layout, reports, diagnostics, await instructionTexts(folderDir, layout), {
      routing: options.models,
      folderDir,
    });
    const lineOf = fieldLines(folderDir);
    checkChannelSupport(diagnostics, manifest.channels, lineOf);
    checkExtensionMounts(diagnostics, layout, lineOf);
    const agentTools = manifest.tools.filter((tool) => tool.execution === "agent");
    if (agentTools.length > 0)
      await bundleAgentToolScripts({ folderDir, projectDir, tools: agentTools, outDir, nodePaths });
    timings.describeMs = performance.now() - started;
    // An incomplete bundle was only for diagnostics: the version has no usable bundle.
    const folder = path.relative(projectDir, folderDir).split(path.sep).join("/");
    if (folder) manifest.folder = folder;
    return isComplete ? finish({ manifest, bundlePath: bundle.bundlePath }) : finish();
  } catch (error) {
    diagnostics.error(undefined, `loading the agent's modules failed: ${(error as Error).message}`);
    return finish();
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
