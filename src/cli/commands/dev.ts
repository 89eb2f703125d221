// agentfold dev [--dir .] [--port 3000] [--slug <agent>] [--state-root <dir>]: the folder's agent,
// or each agent folder of a root (src/cli/dev/dev-folders.ts), on a stack of its own on this
// machine (Postgres, Restate, a worker, the web app with its playground); direct loopback callers
// need no token. An edit (or Enter in a terminal) reloads the agent whose folder changed without
// dropping sessions (src/cli/dev/dev-agent.ts). State (sessions, traces, Restate's journal) lives
// in the state root and survives restarts.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { inheritedEnvironment, parseEnv } from "@/env";
import { defineCommand } from "@/cli/command";
import { loadDevVersion, devTeamId } from "@/cli/dev/dev-agent";
import { assertDistinctSlugs, changedAgents, type DevAgent, devFoldersOf } from "@/cli/dev/dev-folders";
import { devPorts } from "@/cli/dev/dev-ports";
import { createReloads } from "@/cli/dev/dev-reloads";
import { addressLines, loadLines, startedLine } from "@/cli/dev/dev-report";
import { watchFolder } from "@/cli/dev/dev-watch";
import { dirFlag } from "@/cli/flags";
import { slugOf } from "@/cli/local/local-agent";
import { saveDevTraces } from "@/cli/dev/dev-traces";
import { embeddedDatabaseUrl } from "@/cli/start/postgres";
import { startSupervisor, type Supervisor } from "@/cli/start/supervisor";
import { UsageError } from "@/cli/usage-error";
import { createDb, poolOf } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { modelRouting } from "@/server/models";

const say = (line: string) => process.stdout.write(`agentfold: ${line}\n`);

/** Settings of the caller's environment that would point the dev stack elsewhere. */
const notInherited = [
  "DATABASE_URL",
  "RESTATE_INGRESS_URL",
  "RESTATE_ADMIN_URL",
  "RESTATE_IDENTITY_KEYS",
  "WORKER_URL",
  "NEXTAUTH_URL",
  "AGENTFOLD_PUBLIC_URL",
  "AGENTFOLD_CLUSTER",
  "AGENTFOLD_CLUSTER_WORKERS",
  "AGENTFOLD_SINGLE_AGENT",
  "AGENTFOLD_LOCAL_DEV",
];

export function defaultStateRoot(dir: string, slug: string): string {
  const digest = crypto.createHash("sha256").update(dir).digest("hex").slice(0, 8);
  return path.join(os.homedir(), ".local", "state", "agentfold", "dev", `${slug}-${digest}`);
}

export type DevOptions = { dir: string; port?: string; slug?: string; stateRoot?: string };

/** One agent dev serves, and whether a version of it answers yet. */
type Served = DevAgent & { isServing: boolean };

function portOf(port: string | undefined): number {
  const preferred = port === undefined ? 3000 : Number(port);
  if (!Number.isInteger(preferred) || preferred < 0 || preferred > 65_535)
    throw new UsageError(`--port must be a port number (0 for any free one), not '${port}'`);
  return preferred;
}

/** The files of a burst of saves, as one reason. */
const changedReason = (files: string[]) =>
  `changed: ${files.slice(0, 3).join(", ")}${files.length > 3 ? ` and ${files.length - 3} more` : ""}`;

export async function devCommand(options: DevOptions): Promise<number> {
  const startedAt = performance.now();
  const dir = path.resolve(options.dir);
  if (!fs.existsSync(dir)) throw new UsageError(`no such folder: ${dir}`);
  const preferred = portOf(options.port);
  const folders = devFoldersOf(dir, options.slug);
  const stackSlug = folders.isRoot ? slugOf(dir) : folders.agents[0]!.slug;
  const stateRoot = path.resolve(options.stateRoot ?? defaultStateRoot(dir, stackSlug));
  const ports = await devPorts(stateRoot, preferred);
  if (preferred !== 0 && ports.web !== preferred) say(`port ${preferred} is in use; using ${ports.web}`);

  const environment = inheritedEnvironment();
  for (const name of notInherited) delete environment[name];
  const devEnvironment = {
    ...environment,
    AGENTFOLD_DATA_DIR: stateRoot,
    AGENTFOLD_HOST: "127.0.0.1",
    // One agent: also at /v1; several: each at /<slug>/v1 only. Loopback callers need no token.
    ...(folders.isRoot ? { AGENTFOLD_LOCAL_DEV: "1" } : { AGENTFOLD_SINGLE_AGENT: stackSlug }),
    PORT: String(ports.web),
    WORKER_PORT: String(ports.worker),
    POSTGRES_PORT: String(ports.postgres),
    RESTATE_INGRESS_PORT: String(ports.ingress),
    RESTATE_ADMIN_PORT: String(ports.admin),
    RESTATE_NODE_PORT: String(ports.node),
  };
  const config = parseEnv(devEnvironment);

  let supervisor: Supervisor | undefined;
  let isStopping = false;
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = (code: number) => {
    if (isStopping) return;
    isStopping = true;
    say("stopping…");
    void (async () => {
      for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
      await (supervisor?.shutdown() ?? import("@/cli/start/child").then((m) => m.stopAllChildren()));
      process.exit(code);
    })();
  };
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));

  say(`state in ${stateRoot} (sessions' traces in ${path.join(stateRoot, "traces")})`);
  supervisor = await startSupervisor(config, (line) => say(line), { environment: devEnvironment });
  const databaseUrl = embeddedDatabaseUrl(config.dataDir, config.POSTGRES_PORT);
  if (!databaseUrl) throw new Error(`the dev stack's database in ${stateRoot} did not start`);
  const db = createDb(databaseUrl);
  cleanups.push(async () => (await db.$disconnect(), await poolOf(db).end()));
  const traces = await saveDevTraces({ db, databaseUrl, stateRoot, log: say });
  cleanups.push(() => traces.close());
  const runtime = createRestateRuntime({ ingressUrl: config.restateIngressUrl, adminUrl: config.restateAdminUrl });
  const teamId = await devTeamId(db);
  const base = `http://127.0.0.1:${ports.web}`;
  const canType = Boolean(process.stdin.isTTY);

  const served = new Map<string, Served>(folders.agents.map((a) => [a.dir, { ...a, isServing: false }]));
  const reported = (agent: Served) => ({ slug: agent.slug, isRoot: folders.isRoot });
  let isStarted = false;

  const load = async (agentDir: string, reason: string): Promise<void> => {
    const agent = served.get(agentDir)!;
    const began = performance.now();
    say(`${reason}; loading ${path.relative(path.dirname(dir), agentDir) || agentDir}…`);
    const loaded = await loadDevVersion({
      db,
      runtime,
      dataDir: config.dataDir,
      teamId,
      slug: agent.slug,
      dir: agentDir,
      models: modelRouting(config),
    });
    for (const line of loadLines(reported(agent), loaded, Math.round(performance.now() - began), canType)) say(line);
    const isServing = loaded.status === "ready" || loaded.isServing;
    // Its addresses once it answers: at start-up for all, later for one that just began to.
    if (isServing && !agent.isServing && isStarted) for (const line of addressLines(base, reported(agent))) say(line);
    agent.isServing = isServing;
  };
  /** A folder of the root that became an agent folder while dev ran: served from now on. */
  const isNewAgent = (agentDir: string): boolean => {
    const agent = { slug: slugOf(agentDir), dir: agentDir };
    try {
      assertDistinctSlugs([...served.values(), agent]);
    } catch (error) {
      say(`${(error as Error).message}; ${path.basename(agentDir)} is not served`);
      return false;
    }
    served.set(agentDir, { ...agent, isServing: false });
    return true;
  };
  const reloads = createReloads(load, (agentDir, error) =>
    say(`loading ${path.basename(agentDir)} failed: ${(error as Error).message}`),
  );
  cleanups.push(() => reloads.close());

  // Watching from before the first loads: a save during them makes one more load after.
  const watcher = watchFolder(dir, (files) => {
    const current = { isRoot: folders.isRoot, agents: [...served.values()] };
    for (const [agentDir, changed] of changedAgents(dir, current, files)) {
      if (!served.has(agentDir) && !isNewAgent(agentDir)) continue;
      reloads.request(agentDir, changedReason(changed));
    }
  });
  cleanups.push(() => watcher.close());
  for (const agent of served.values()) reloads.request(agent.dir, "starting");
  await Promise.all([reloads.idle(), watcher.ready]);
  isStarted = true;
  for (const agent of served.values())
    if (agent.isServing) for (const line of addressLines(base, reported(agent))) say(line);
  const waiting = [...served.values()].filter((a) => !a.isServing).map((a) => a.slug);
  const watching = `watching ${dir}${canType ? " (Enter reloads)" : ""}`;
  say(startedLine((performance.now() - startedAt) / 1000, watching, waiting));

  if (canType) {
    const keys = readline.createInterface({ input: process.stdin });
    keys.on("line", () => {
      for (const agent of served.values()) reloads.request(agent.dir, "Enter");
    });
    cleanups.push(() => keys.close());
  }
  return -1;
}

export const devCommandSpec = defineCommand({
  name: "dev",
  group: "develop",
  summary: "Serve the folder's agent, or each agent of a root, with its playground; reload on every edit",
  details:
    "--dir is one agent folder (it holds bot/), or a root whose subfolders are agent folders: each is its own agent, named by its folder, and an edit reloads only the agent whose folder changed. Direct loopback callers are the local principal, no token needed, and /v1/dev/* (schedule dispatch, evals) is open to them. Sessions survive reloads and restarts.",
  flags: {
    dir: { ...dirFlag, description: "The agent folder, or a root of several (default: the current one)" },
    port: {
      type: "string",
      value: "<n>",
      description: "The web port (default 3000; the next free one when busy; 0: any)",
    },
    slug: {
      type: "string",
      value: "<agent>",
      description: "The agent's slug (default: the folder's name; in a root, each agent's folder's name)",
    },
    "state-root": {
      type: "string",
      value: "<dir>",
      description: "Where sessions and durable state live (default ~/.local/state/agentfold/dev/<agent>-<hash>)",
    },
  },
  examples: [
    "agentfold dev --dir examples/support-desk",
    "agentfold dev --dir examples   # every agent folder in it",
    "agentfold dev --port 0 --state-root /tmp/desk-dev",
  ],
  run: ({ flags }) =>
    devCommand({ dir: flags.dir ?? ".", port: flags.port, slug: flags.slug, stateRoot: flags["state-root"] }),
});
