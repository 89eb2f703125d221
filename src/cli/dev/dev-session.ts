// The agents `agentfold dev` serves, as their folders change: each loads at start, and again, one
// load at a time (dev-reloads.ts), after saves in its folder (dev-watch.ts) or when asked (Enter);
// a folder of a root that becomes an agent folder while dev runs is served from then on. It prints
// what each load did, and an agent's addresses once it answers (dev-report.ts).
import path from "node:path";
import { slugOf } from "@/cli/local/local-agent";
import type { DevLoad } from "./dev-agent";
import { assertDistinctSlugs, changedAgents, type DevAgent, type DevFolders } from "./dev-folders";
import { createReloads, type Reloads } from "./dev-reloads";
import { addressLines, loadLines } from "./dev-report";
import { watchFolder } from "./dev-watch";

/** Something dev undoes when it stops. */
export type Cleanup = () => Promise<void> | void;

export type DevSessionOptions = {
  /** --dir, resolved. */
  dir: string;
  folders: DevFolders;
  /** The web app's address. */
  base: string;
  /** Whether Enter reloads (stdin is a terminal). */
  canType: boolean;
  /** Makes the agent's folder a new version of it on the dev stack (dev-agent.ts). */
  loadVersion: (slug: string, dir: string) => Promise<DevLoad>;
  say: (line: string) => void;
  /** What dev undoes when it stops; the session adds its own. */
  cleanups: Cleanup[];
};

export type DevSession = {
  /** The slugs of the agents that did not answer once the first loads were done. */
  waiting: string[];
  /** Reloads every agent served. */
  reloadAll: (reason: string) => void;
};

/** One agent dev serves, and whether a version of it answers yet. */
type Served = DevAgent & { isServing: boolean };

/** The agents served, by folder, and whether start-up (the first loads) is done. */
type Serving = { agents: Map<string, Served>; isStarted: boolean };

/** The files of a burst of saves, as one reason. */
const changedReason = (files: string[]) =>
  `changed: ${files.slice(0, 3).join(", ")}${files.length > 3 ? ` and ${files.length - 3} more` : ""}`;

const reported = (options: DevSessionOptions, agent: Served) => ({ slug: agent.slug, isRoot: options.folders.isRoot });

/** Loads each agent and watches the folders; settles once the first loads and the first scan are done. */
export async function startDevSession(options: DevSessionOptions): Promise<DevSession> {
  const { dir, folders, say, cleanups } = options;
  const serving: Serving = {
    agents: new Map(folders.agents.map((a) => [a.dir, { ...a, isServing: false }])),
    isStarted: false,
  };
  const served = serving.agents;
  const reloads = createReloads(
    (agentDir, reason) => load(options, serving, agentDir, reason),
    (agentDir, error) => say(`loading ${path.basename(agentDir)} failed: ${(error as Error).message}`),
  );
  cleanups.push(() => reloads.close());

  // Watching from before the first loads: a save during them makes one more load after.
  const watcher = watchFolder(dir, (files) => reloadChanged(options, serving, reloads, files));
  cleanups.push(() => watcher.close());
  for (const agent of served.values()) reloads.request(agent.dir, "starting");
  await Promise.all([reloads.idle(), watcher.ready]);
  serving.isStarted = true;
  for (const agent of served.values())
    if (agent.isServing) for (const line of addressLines(options.base, reported(options, agent))) say(line);
  return {
    waiting: [...served.values()].filter((a) => !a.isServing).map((a) => a.slug),
    reloadAll: (reason) => {
      for (const agent of served.values()) reloads.request(agent.dir, reason);
    },
  };
}

async function load(options: DevSessionOptions, serving: Serving, agentDir: string, reason: string): Promise<void> {
  const { say } = options;
  const agent = serving.agents.get(agentDir)!;
  const began = performance.now();
  say(`${reason}; loading ${path.relative(path.dirname(options.dir), agentDir) || agentDir}…`);
  const loaded = await options.loadVersion(agent.slug, agentDir);
  const ms = Math.round(performance.now() - began);
  for (const line of loadLines(reported(options, agent), loaded, ms, options.canType)) say(line);
  const isServing = loaded.status === "ready" || loaded.isServing;
  // Its addresses once it answers: at start-up for all, later for one that just began to.
  if (isServing && !agent.isServing && serving.isStarted)
    for (const line of addressLines(options.base, reported(options, agent))) say(line);
  agent.isServing = isServing;
}

/** A burst of saves: a load of each agent whose folder it touched. */
function reloadChanged(options: DevSessionOptions, serving: Serving, reloads: Reloads, files: string[]): void {
  const current = { isRoot: options.folders.isRoot, agents: [...serving.agents.values()] };
  for (const [agentDir, changed] of changedAgents(options.dir, current, files)) {
    if (!serving.agents.has(agentDir) && !isNewAgent(options, serving, agentDir)) continue;
    reloads.request(agentDir, changedReason(changed));
  }
}

/** A folder of the root that became an agent folder while dev ran: served from now on. */
function isNewAgent(options: DevSessionOptions, serving: Serving, agentDir: string): boolean {
  const agent = { slug: slugOf(agentDir), dir: agentDir };
  try {
    assertDistinctSlugs([...serving.agents.values(), agent]);
  } catch (error) {
    options.say(`${(error as Error).message}; ${path.basename(agentDir)} is not served`);
    return false;
  }
  serving.agents.set(agentDir, { ...agent, isServing: false });
  return true;
}
