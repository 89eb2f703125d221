// Which agents `agentfold dev --dir` serves. A folder is an agent folder when it holds `bot/` (or
// the legacy `agent/`), as the loader finds one (src/agents/loader/layout.ts). --dir is one agent
// folder, or a root whose agent folders are its direct subfolders, each its own agent with its
// folder's name as slug (docs/cli.md, "dev").
import fs from "node:fs";
import path from "node:path";
import { agentRootFolders } from "@/agents/loader/layout";
import { slugOf } from "@/cli/local/local-agent";
import { UsageError } from "@/cli/usage-error";

export type DevAgent = { slug: string; dir: string };

export type DevFolders = { isRoot: boolean; agents: DevAgent[] };

/** Folders nobody edits an agent in: dependencies, and dot-folders (.git, .cache …). */
export const isSkippedName = (name: string) => name === "node_modules" || name.startsWith(".");

export function isAgentFolder(dir: string): boolean {
  return agentRootFolders.some((name) => {
    try {
      return fs.statSync(path.join(dir, name)).isDirectory();
    } catch {
      return false;
    }
  });
}

/** The agent folders directly inside `root`, by name. */
export function agentFoldersIn(root: string): string[] {
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !isSkippedName(entry.name))
    .map((entry) => path.join(root, entry.name))
    .filter(isAgentFolder)
    .sort((a, b) => a.localeCompare(b));
}

/** A folder that is neither an agent folder nor holds one is served as one agent: its load then
 * says what is missing, and dev waits for a fix. */
export function devFoldersOf(dir: string, slug?: string): DevFolders {
  const inside = isAgentFolder(dir) ? [] : agentFoldersIn(dir);
  if (inside.length === 0) return { isRoot: false, agents: [{ slug: slug ?? slugOf(dir), dir }] };
  if (slug !== undefined)
    throw new UsageError(`${dir} holds several agents, each named by its folder: --slug is for one agent folder`);
  const agents = inside.map((agentDir) => ({ slug: slugOf(agentDir), dir: agentDir }));
  assertDistinctSlugs(agents);
  return { isRoot: true, agents };
}

export function assertDistinctSlugs(agents: DevAgent[]): void {
  for (const [index, agent] of agents.entries()) {
    const other = agents.findIndex((a) => a.slug === agent.slug);
    if (other !== index)
      throw new UsageError(
        `${path.basename(agents[other]!.dir)} and ${path.basename(agent.dir)} would both be the agent '${agent.slug}'; rename one`,
      );
  }
}

/**
 * The agent folders a burst of changed files concerns, each with its files (relative to `dir`):
 * the one agent folder; in a root, the agent folder a file is in, or a folder that has just become
 * one, and for a file outside every agent folder (shared code, the root's package.json, which an
 * agent's pack may include), every agent.
 */
export function changedAgents(dir: string, folders: DevFolders, files: string[]): Map<string, string[]> {
  const changes = new Map<string, string[]>();
  const add = (agentDir: string, file: string) => changes.set(agentDir, [...(changes.get(agentDir) ?? []), file]);
  const known = new Set(folders.agents.map((a) => a.dir));
  for (const file of files) {
    const relative = path.relative(dir, file);
    const top = path.join(dir, relative.split(path.sep)[0]!);
    if (!folders.isRoot) add(folders.agents[0]!.dir, relative);
    else if (known.has(top) || isAgentFolder(top)) add(top, relative);
    else for (const agentDir of known) add(agentDir, relative);
  }
  return changes;
}
