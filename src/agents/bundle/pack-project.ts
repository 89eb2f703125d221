// The one file set of an agent folder (docs/agent-folders.md, "What is uploaded"): `deploy` uploads
// this archive and `validate` loads this archive extracted, so both see the same files. The
// project is the folder itself, unless the folder has no package.json and its code needs what is
// above it (a relative import reaching out, or an npm package): then it is the nearest folder
// above with a package.json, whole. Outside the project nothing is packed, so an import reaching
// above it fails in both, by name. When the project's dependencies are installed (node_modules
// beside its package.json), the packages the agent imports are bundled from there into the
// archive (bundle-dependencies.ts), so the platform installs nothing.
import fs from "node:fs";
import path from "node:path";
import { createGzip } from "node:zlib";
import { pack } from "tar-stream";
import { diskSource } from "@/agents/loader/source";
import { type BundledDependencies, bundleDependencies } from "./bundle-dependencies";
import { dependencyBundleFolder, isProvided } from "./dependency-bundle";

/** At the archive's root when the agent folder is below the project root: where it is. */
export const projectMarkerFile = "agentfold-project.json";

export type PackedProject = {
  archive: Buffer;
  /** The project root on disk: the agent folder, or the folder above it with the package.json. */
  root: string;
  /** The agent folder inside the archive, POSIX; "" when it is the root. */
  agentFolder: string;
  files: string[];
  /** The npm packages bundled on this machine, when node_modules was there to bundle them from. */
  dependencies?: BundledDependencies["manifest"];
};

/** A command's steps as they happen (src/cli/step-progress.ts). */
export type PackProgress = { start(step: string): void; done(detail?: string): void; fail(detail?: string): void };

export async function projectRootOf(agentDir: string): Promise<string> {
  const start = path.resolve(agentDir);
  if (fs.existsSync(path.join(start, "package.json")) || !(await needsAbove(start))) return start;
  for (let dir = path.dirname(start); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
  }
  return start;
}

const specifierPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;
const codeFile = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** Whether the folder's code imports a file above it or an npm package (read, not bundled). */
async function needsAbove(folderDir: string): Promise<boolean> {
  const source = diskSource(folderDir);
  for (const file of (await source.list()).filter((name) => codeFile.test(name))) {
    const text = (await source.read(file)).toString("utf8");
    for (const [, specifier] of text.matchAll(specifierPattern)) {
      if (specifier!.startsWith(".")) {
        const target = path.resolve(folderDir, path.dirname(file), specifier!);
        if (!target.startsWith(folderDir + path.sep)) return true;
      } else if (!isProvided(specifier!)) return true;
    }
  }
  return false;
}

export async function packProject(agentDir: string, options: { progress?: PackProgress } = {}): Promise<PackedProject> {
  const { progress } = options;
  const root = await projectRootOf(agentDir);
  const agentFolder = path.relative(root, path.resolve(agentDir)).split(path.sep).join("/");
  const bundled = hasInstalledDependencies(root) ? await bundleInstalled(root, agentDir, progress) : undefined;
  progress?.start("packing");
  const source = diskSource(root);
  // Ours alone: a folder of the author's by these names would be mistaken for what deploy made.
  const isReserved = (file: string) => file === projectMarkerFile || file.startsWith(`${dependencyBundleFolder}/`);
  const files = (await source.list()).filter((file) => !isReserved(file));
  const entries: { name: string; content: Buffer }[] = [];
  if (agentFolder) entries.push({ name: projectMarkerFile, content: Buffer.from(JSON.stringify({ agentFolder })) });
  for (const file of files) entries.push({ name: file, content: await source.read(file) });
  entries.push(...(bundled?.entries ?? []));
  return { archive: await tarGz(entries), root, agentFolder, files, dependencies: bundled?.manifest };
}

function hasInstalledDependencies(root: string): boolean {
  return fs.existsSync(path.join(root, "package.json")) && fs.existsSync(path.join(root, "node_modules"));
}

async function bundleInstalled(root: string, agentDir: string, progress?: PackProgress) {
  progress?.start("bundling dependencies");
  const bundled = await bundleDependencies({ root, folderDir: path.resolve(agentDir) });
  const { packages, bytes, diagnostics } = bundled.manifest;
  const errors = diagnostics.filter((d) => d.level === "error").length;
  if (errors > 0) progress?.fail(`${errors} error${errors === 1 ? "" : "s"}`);
  else if (packages.length === 0) progress?.done("none imported");
  else
    progress?.done(
      `${packages.length > 3 ? `${packages.length} packages` : packages.join(", ")}, ${formatSize(bytes)}` +
        (bundled.isReused ? " (unchanged since the last build)" : ""),
    );
  return bundled;
}

const formatSize = (bytes: number) =>
  bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1048576).toFixed(1)} MiB`;

async function tarGz(entries: { name: string; content: Buffer }[]): Promise<Buffer> {
  const tar = pack();
  const gzip = tar.pipe(createGzip());
  const chunks: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve, reject) => (gzip.on("end", resolve), gzip.on("error", reject)));
  for (const entry of entries) tar.entry({ name: entry.name }, entry.content);
  tar.finalize();
  await done;
  return Buffer.concat(chunks);
}

/**
 * The agent folder of an extracted upload: its root, or the folder the marker names. A marker that
 * points outside the upload or at nothing is refused, as a bad archive entry is.
 */
export function extractedAgentFolder(extractedRoot: string): { folderDir: string; agentFolder: string } {
  const marker = path.join(extractedRoot, projectMarkerFile);
  if (!fs.existsSync(marker)) return { folderDir: extractedRoot, agentFolder: "" };
  let agentFolder: unknown;
  try {
    agentFolder = (JSON.parse(fs.readFileSync(marker, "utf8")) as { agentFolder?: unknown }).agentFolder;
  } catch {
    agentFolder = undefined;
  }
  const folderDir = typeof agentFolder === "string" ? path.resolve(extractedRoot, agentFolder) : "";
  const isInside = folderDir.startsWith(extractedRoot + path.sep);
  if (typeof agentFolder !== "string" || !isInside || !fs.statSync(folderDir, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`${projectMarkerFile} must name the agent folder inside the upload, as {"agentFolder":"agents/x"}`);
  return { folderDir, agentFolder };
}
