// Lays out a session's workspace (spec §4.5) before its first turn: seed files, skills under
// .cursor/skills, AGENTS.md with the instructions and the catalog of agent-run tools, the tools'
// scripts, and per-send workspaceFiles. Every path is confined to the workspace. All of it is
// asynchronous: a turn lays out its workspace while its first model step runs (run-turn.ts).
import fs from "node:fs/promises";
import path from "node:path";
import type { AgentManifest } from "@/agents/loader/manifest";
import { AppError } from "@/server/http/app-error";

/** Resolves a relative path inside the workspace, or throws when it would leave it. */
export function confinedPath(workspaceDir: string, relative: string): string {
  const normalized = path.posix.normalize(relative.replace(/\\/g, "/"));
  if (path.posix.isAbsolute(normalized) || normalized === ".." || normalized.startsWith("../") || normalized.includes("\0")) {
    throw new AppError("invalid_input", `workspace path '${relative}' is outside the workspace`);
  }
  return path.join(workspaceDir, normalized);
}

async function write(file: string, content: string | Buffer | Promise<string | Buffer>): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, await content);
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
  return [manifest.instructionsText.trim(), "", "## Tools you can run in this workspace", "", ...catalog].join("\n") + "\n";
}

/** Writes per-send files into a workspace; every path is checked before anything is written. */
export async function writeWorkspaceFiles(workspaceDir: string, files: Record<string, string>): Promise<void> {
  const targets = Object.entries(files).map(([relative, content]) => [confinedPath(workspaceDir, relative), content] as const);
  for (const [file, content] of targets) await write(file, content);
}

const preparedMarker = (workspaceDir: string) => path.join(workspaceDir, ".agentfold", "prepared");

/** Whether the workspace was seeded already (by an earlier turn of its session). */
export async function isPrepared(workspaceDir: string): Promise<boolean> {
  return exists(preparedMarker(workspaceDir));
}

export async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

export async function prepareWorkspace(options: {
  workspaceDir: string;
  /** The version's extracted source folder and bundle directory. */
  sourceDir: string;
  bundleDir: string;
  manifest: AgentManifest;
  workspaceFiles?: Record<string, string>;
}): Promise<void> {
  const { workspaceDir, sourceDir, bundleDir, manifest, workspaceFiles = {} } = options;
  const marker = preparedMarker(workspaceDir);
  // Paths are checked before anything is written, so a bad one leaves the workspace untouched.
  for (const relative of Object.keys(workspaceFiles)) confinedPath(workspaceDir, relative);
  if (!(await exists(marker))) {
    const root = path.join(sourceDir, manifest.root);
    const copies: [target: string, content: string | Promise<Buffer>][] = [];
    for (const seed of manifest.seedFiles) copies.push([confinedPath(workspaceDir, seed), fs.readFile(path.join(root, "sandbox", "workspace", seed))]);
    for (const skill of manifest.skills) {
      const target = path.join(workspaceDir, ".cursor", "skills", skill.name);
      if (skill.form === "generated") {
        copies.push([path.join(target, "SKILL.md"), skill.content ?? ""]);
        continue;
      }
      copies.push([path.join(target, "SKILL.md"), fs.readFile(path.join(sourceDir, skill.file))]);
      for (const sibling of skill.files ?? []) copies.push([confinedPath(target, sibling), fs.readFile(path.join(path.dirname(path.join(sourceDir, skill.file)), sibling))]);
    }
    for (const tool of manifest.tools.filter((t) => t.execution === "agent")) {
      copies.push([path.join(workspaceDir, ".agentfold", "tools", `${tool.name}.mjs`), fs.readFile(path.join(bundleDir, "agent-tools", `${tool.name}.mjs`))]);
    }
    copies.push([path.join(workspaceDir, "AGENTS.md"), agentsMarkdown(manifest)]);
    // Reads that fail are awaited (and surface) with their write, never left unhandled.
    for (const [, content] of copies) if (typeof content !== "string") content.catch(() => undefined);
    await Promise.all(copies.map(([target, content]) => write(target, content)));
    // Last: a workspace cut off mid-way is seeded again by the next turn.
    await write(marker, new Date().toISOString());
  }
  await writeWorkspaceFiles(workspaceDir, workspaceFiles);
}
