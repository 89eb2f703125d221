// Lays out a session's workspace (docs/agent-folders.md, "The session workspace") before its first
// turn: seed files, skills under .cursor/skills, AGENTS.md with the instructions and the catalog of
// agent-run tools, the tools' scripts, and per-send workspaceFiles. Every path is confined to the
// workspace.
//
// Synchronous on purpose, and with as few calls as it takes: a new session's first turn lays its
// workspace out before the model's first step. Node runs an asynchronous file system call on its
// thread pool and finishes it on the event loop, so during a busy turn each call (and each level
// of a recursive mkdir) waited for the loop: the asynchronous layout took 7–10 ms per new
// session in the turn benchmark, these three calls (mkdir, AGENTS.md, the marker) well under 1.
// The worker mostly lays workspaces out ahead of time, between turns (./workspace-stock.ts).
import fs from "node:fs";
import path from "node:path";
import type { AgentManifest } from "@/agents/loader/manifest";
import { ensureWorkspaceDir, handOver } from "./workspace-owner";

/** Resolves a relative path inside the workspace, or throws when it would leave it. */
export function confinedPath(workspaceDir: string, relative: string): string {
  const normalized = path.posix.normalize(relative.replace(/\\/g, "/"));
  if (
    path.posix.isAbsolute(normalized) ||
    normalized === ".." ||
    normalized.startsWith("../") ||
    normalized.includes("\0")
  ) {
    // Requests are refused earlier (src/server/sessions/assert-workspace-paths.ts); this is the last guard.
    throw new Error(`workspace path '${relative}' is outside the workspace`);
  }
  return path.join(workspaceDir, normalized);
}

function write(file: string, content: string): void {
  const made = fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  handOver(file, made);
}

export function agentsMarkdown(manifest: AgentManifest): string {
  const agentTools = manifest.tools.filter((tool) => tool.execution === "agent");
  if (agentTools.length === 0) return manifest.instructionsText.trim() + "\n";
  const catalog = agentTools.map((tool) =>
    [
      `### ${tool.name}`,
      tool.description,
      "",
      `Run: \`node .agentfold/tools/${tool.name}.mjs '<json input>'\` (prints the result as JSON)`,
      ...(tool.inputSchema ? ["", "Input schema:", "```json", JSON.stringify(tool.inputSchema, null, 2), "```"] : []),
    ].join("\n"),
  );
  return (
    [manifest.instructionsText.trim(), "", "## Tools you can run in this workspace", "", ...catalog].join("\n") + "\n"
  );
}

/** Writes per-send files into a workspace; every path is checked before anything is written. */
export function writeWorkspaceFiles(workspaceDir: string, files: Record<string, string>): void {
  const targets = Object.entries(files).map(
    ([relative, content]) => [confinedPath(workspaceDir, relative), content] as const,
  );
  for (const [file, content] of targets) write(file, content);
}

const preparedMarker = (workspaceDir: string) => path.join(workspaceDir, ".agentfold", "prepared");

/** Whether the workspace was seeded already (by an earlier turn of its session). */
export function isPrepared(workspaceDir: string): boolean {
  return fs.existsSync(preparedMarker(workspaceDir));
}

export function prepareWorkspace(options: {
  workspaceDir: string;
  /** The version's extracted source folder and bundle directory. */
  sourceDir: string;
  bundleDir: string;
  manifest: AgentManifest;
  workspaceFiles?: Record<string, string>;
}): void {
  const { workspaceDir, sourceDir, bundleDir, manifest, workspaceFiles = {} } = options;
  // Paths are checked before anything is written, so a bad one leaves the workspace untouched.
  for (const relative of Object.keys(workspaceFiles)) confinedPath(workspaceDir, relative);
  // A new workspace gets its .agentfold here: only a found one can be seeded already.
  ensureWorkspaceDir(workspaceDir);
  const isNew = fs.mkdirSync(path.join(workspaceDir, ".agentfold"), { recursive: true }) !== undefined;
  if (isNew) handOver(path.join(workspaceDir, ".agentfold"));
  if (isNew || !isPrepared(workspaceDir)) seed({ workspaceDir, sourceDir, bundleDir, manifest });
  writeWorkspaceFiles(workspaceDir, workspaceFiles);
}

function seed({
  workspaceDir,
  sourceDir,
  bundleDir,
  manifest,
}: {
  workspaceDir: string;
  sourceDir: string;
  bundleDir: string;
  manifest: AgentManifest;
}): void {
  const root = path.join(sourceDir, manifest.root);
  const copies: [target: string, content: string | (() => Buffer)][] = [];
  const fromSource = (file: string) => () => fs.readFileSync(path.join(sourceDir, file));
  for (const seedFile of manifest.seedFiles)
    copies.push([
      confinedPath(workspaceDir, seedFile),
      fromSource(path.join(manifest.root, "sandbox", "workspace", seedFile)),
    ]);
  for (const skill of manifest.skills) {
    const target = path.join(workspaceDir, ".cursor", "skills", skill.name);
    if (skill.form === "generated") {
      copies.push([path.join(target, "SKILL.md"), skill.content ?? ""]);
      continue;
    }
    copies.push([path.join(target, "SKILL.md"), fromSource(skill.file)]);
    for (const sibling of skill.files ?? [])
      copies.push([confinedPath(target, sibling), fromSource(path.join(path.dirname(skill.file), sibling))]);
  }
  // A version kept without its source folder seeds nothing from it (nor marks the workspace).
  if (copies.some(([, content]) => typeof content !== "string") && !fs.existsSync(root)) return;
  for (const tool of manifest.tools.filter((t) => t.execution === "agent")) {
    copies.push([
      path.join(workspaceDir, ".agentfold", "tools", `${tool.name}.mjs`),
      () => fs.readFileSync(path.join(bundleDir, "agent-tools", `${tool.name}.mjs`)),
    ]);
  }
  copies.push([path.join(workspaceDir, "AGENTS.md"), agentsMarkdown(manifest)]);
  // Each folder is made once; the workspace and its .agentfold exist already.
  const made = new Set([workspaceDir, path.join(workspaceDir, ".agentfold")]);
  for (const [target, content] of copies) {
    const folder = path.dirname(target);
    const madeFrom = made.has(folder) ? undefined : fs.mkdirSync(folder, { recursive: true });
    made.add(folder);
    fs.writeFileSync(target, typeof content === "string" ? content : content());
    handOver(target, madeFrom);
  }
  // Last: a workspace cut off mid-way is seeded again by the next turn.
  fs.writeFileSync(preparedMarker(workspaceDir), new Date().toISOString());
  handOver(preparedMarker(workspaceDir));
}
