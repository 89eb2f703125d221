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
import { type Env, inheritedEnvironment, parseEnv } from "@/env";
import { defineCommand } from "@/cli/command";
import { loadDevVersion, devTeamId } from "@/cli/dev/dev-agent";
import { type DevFolders, devFoldersOf } from "@/cli/dev/dev-folders";
import { type DevPorts, devPorts } from "@/cli/dev/dev-ports";
import { startedLine } from "@/cli/dev/dev-report";
import { type Cleanup, type DevSession, type DevSessionOptions, startDevSession } from "@/cli/dev/dev-session";
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

/** The stack dev runs: what it serves, where its state and ports are, what its processes start from. */
type DevStack = {
  dir: string;
  folders: DevFolders;
  stateRoot: string;
  ports: DevPorts;
  environment: NodeJS.ProcessEnv;
  config: Env;
};

/** What a stop undoes, last first, and the stack it then shuts down once there is one. */
type Stopping = { cleanups: Cleanup[]; supervisor?: Supervisor };

function portOf(port: string | undefined): number {
  const preferred = port === undefined ? 3000 : Number(port);
  if (!Number.isInteger(preferred) || preferred < 0 || preferred > 65_535)
    throw new UsageError(`--port must be a port number (0 for any free one), not '${port}'`);
  return preferred;
}

export async function devCommand(options: DevOptions): Promise<number> {
  const startedAt = performance.now();
  const stack = await devStackOf(options);
  const { dir, folders, stateRoot } = stack;
  const stopping = stopOnSignals();
  const { cleanups } = stopping;
  say(`state in ${stateRoot} (sessions' traces in ${path.join(stateRoot, "traces")})`);
  stopping.supervisor = await startSupervisor(stack.config, (line) => say(line), { environment: stack.environment });
  const loadVersion = await versionLoader(stack, cleanups);
  const base = `http://127.0.0.1:${stack.ports.web}`;
  const canType = Boolean(process.stdin.isTTY);
  const session = await startDevSession({ dir, folders, base, canType, loadVersion, say, cleanups });
  const watching = `watching ${dir}${canType ? " (Enter reloads)" : ""}`;
  say(startedLine((performance.now() - startedAt) / 1000, watching, session.waiting));
  if (canType) reloadOnEnter(session, cleanups);
  return -1;
}

/** The stack of --dir: its agents, state root and ports, and its processes' environment and config. */
async function devStackOf(options: DevOptions): Promise<DevStack> {
  const dir = path.resolve(options.dir);
  if (!fs.existsSync(dir)) throw new UsageError(`no such folder: ${dir}`);
  const preferred = portOf(options.port);
  const folders = devFoldersOf(dir, options.slug);
  const stackSlug = folders.isRoot ? slugOf(dir) : folders.agents[0]!.slug;
  const stateRoot = path.resolve(options.stateRoot ?? defaultStateRoot(dir, stackSlug));
  const ports = await devPorts(stateRoot, preferred);
  if (preferred !== 0 && ports.web !== preferred) say(`port ${preferred} is in use; using ${ports.web}`);
  const environment = devEnvironmentOf(stateRoot, folders, stackSlug, ports);
  return { dir, folders, stateRoot, ports, environment, config: parseEnv(environment) };
}

/** The caller's environment, but for what would point the stack elsewhere, with the stack's own settings. */
function devEnvironmentOf(stateRoot: string, folders: DevFolders, stackSlug: string, ports: DevPorts) {
  const environment = inheritedEnvironment();
  for (const name of notInherited) delete environment[name];
  return {
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
}

/** On SIGINT or SIGTERM, once: undoes the cleanups, last first, shuts the stack down, and exits. */
function stopOnSignals(): Stopping {
  const stopping: Stopping = { cleanups: [] };
  let isStopping = false;
  const stop = (code: number) => {
    if (isStopping) return;
    isStopping = true;
    say("stopping…");
    void (async () => {
      for (const cleanup of stopping.cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
      await (stopping.supervisor?.shutdown() ?? import("@/cli/start/child").then((m) => m.stopAllChildren()));
      process.exit(code);
    })();
  };
  process.on("SIGINT", () => stop(0));
  process.on("SIGTERM", () => stop(0));
  return stopping;
}

/** Connects to the started stack (its database, traces, Restate): what loads a folder as a version on it. */
async function versionLoader(stack: DevStack, cleanups: Cleanup[]): Promise<DevSessionOptions["loadVersion"]> {
  const { config, stateRoot } = stack;
  const databaseUrl = embeddedDatabaseUrl(config.dataDir, config.POSTGRES_PORT);
  if (!databaseUrl) throw new Error(`the dev stack's database in ${stateRoot} did not start`);
  const db = createDb(databaseUrl);
  cleanups.push(async () => (await db.$disconnect(), await poolOf(db).end()));
  const traces = await saveDevTraces({ db, databaseUrl, stateRoot, log: say });
  cleanups.push(() => traces.close());
  const runtime = createRestateRuntime({ ingressUrl: config.restateIngressUrl, adminUrl: config.restateAdminUrl });
  const teamId = await devTeamId(db);
  return (slug, dir) =>
    loadDevVersion({ db, runtime, dataDir: config.dataDir, teamId, slug, dir, models: modelRouting(config) });
}

/** In a terminal, Enter reloads every agent. */
function reloadOnEnter(session: DevSession, cleanups: Cleanup[]): void {
  const keys = readline.createInterface({ input: process.stdin });
  keys.on("line", () => session.reloadAll("Enter"));
  cleanups.push(() => keys.close());
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
