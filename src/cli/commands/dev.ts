// agentfold dev [--dir .] [--port 3000] [--slug <agent>] [--state-root <dir>]: the folder's agent
// on a stack of its own on this machine (Postgres, Restate, a worker, the web app with its
// playground), in single-agent local mode: direct loopback callers need no token. Edits in the
// folder (or Enter in a terminal) reload it without dropping sessions (src/cli/dev/dev-agent.ts).
// State (sessions, traces, Restate's journal) lives in the state root and survives restarts.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { watch } from "chokidar";
import { inheritedEnvironment, parseEnv } from "@/env";
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import { defineCommand } from "@/cli/command";
import { loadDevVersion, devTeamId } from "@/cli/dev/dev-agent";
import { devPorts } from "@/cli/dev/dev-ports";
import { dirFlag } from "@/cli/flags";
import { slugOf } from "@/cli/local/local-agent";
import { embeddedDatabaseUrl } from "@/cli/start/postgres";
import { startSupervisor, type Supervisor } from "@/cli/start/supervisor";
import { UsageError } from "@/cli/usage-error";
import { createDb, poolOf } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { modelRouting } from "@/server/models";

const say = (line: string) => process.stdout.write(`agentfold: ${line}\n`);

/** How long the watcher lets a burst of saves settle before reloading once. */
const settleMs = 150;

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
];

export function defaultStateRoot(dir: string, slug: string): string {
  const digest = crypto.createHash("sha256").update(dir).digest("hex").slice(0, 8);
  return path.join(os.homedir(), ".local", "state", "agentfold", "dev", `${slug}-${digest}`);
}

/** Paths whose changes mean nothing to the agent. */
function isIgnored(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative.split(path.sep).some((part) => part === "node_modules" || (part.startsWith(".") && part !== "."));
}

export type DevOptions = { dir: string; port?: string; slug?: string; stateRoot?: string };

export async function devCommand(options: DevOptions): Promise<number> {
  const startedAt = performance.now();
  const dir = path.resolve(options.dir);
  if (!fs.existsSync(dir)) throw new UsageError(`no such folder: ${dir}`);
  const preferred = options.port === undefined ? 3000 : Number(options.port);
  if (!Number.isInteger(preferred) || preferred < 0 || preferred > 65_535)
    throw new UsageError(`--port must be a port number (0 for any free one), not '${options.port}'`);
  const slug = options.slug ?? slugOf(dir);
  const stateRoot = path.resolve(options.stateRoot ?? defaultStateRoot(dir, slug));
  const ports = await devPorts(stateRoot, preferred);
  if (preferred !== 0 && ports.web !== preferred) say(`port ${preferred} is in use; using ${ports.web}`);

  const environment = inheritedEnvironment();
  for (const name of notInherited) delete environment[name];
  const devEnvironment = {
    ...environment,
    AGENTFOLD_DATA_DIR: stateRoot,
    AGENTFOLD_HOST: "127.0.0.1",
    AGENTFOLD_SINGLE_AGENT: slug,
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

  say(`state in ${stateRoot}`);
  supervisor = await startSupervisor(config, (line) => say(line), { environment: devEnvironment });
  const databaseUrl = embeddedDatabaseUrl(config.dataDir, config.POSTGRES_PORT);
  if (!databaseUrl) throw new Error(`the dev stack's database in ${stateRoot} did not start`);
  const db = createDb(databaseUrl);
  cleanups.push(async () => (await db.$disconnect(), await poolOf(db).end()));
  const runtime = createRestateRuntime({ ingressUrl: config.restateIngressUrl, adminUrl: config.restateAdminUrl });
  const teamId = await devTeamId(db);

  const reload = async (reason: string): Promise<void> => {
    const began = performance.now();
    say(`${reason}; loading ${path.basename(dir)}…`);
    const loaded = await loadDevVersion({
      db,
      runtime,
      dataDir: config.dataDir,
      teamId,
      slug,
      dir,
      models: modelRouting(config),
    });
    for (const diagnostic of loaded.diagnostics) say(formatDiagnostic(diagnostic));
    const ms = Math.round(performance.now() - began);
    if (loaded.status === "ready") {
      const moved = loaded.movedSessions
        ? ` (${loaded.movedSessions} session${loaded.movedSessions === 1 ? "" : "s"} moved to it)`
        : "";
      say(`version ${loaded.number} ready in ${ms} ms${moved}`);
    } else {
      const errors = loaded.diagnostics.filter((d) => d.level === "error").length;
      say(
        `version ${loaded.number} has ${errors} error${errors === 1 ? "" : "s"}; the last good version keeps serving`,
      );
    }
  };

  // One load at a time; changes during a load make one more after it.
  let running: Promise<void> | undefined;
  let queued: string | undefined;
  const requestReload = (reason: string) => {
    if (running) {
      queued = reason;
      return;
    }
    running = reload(reason)
      .catch((error: unknown) => {
        say(`loading failed: ${(error as Error).message}`);
      })
      .finally(() => {
        running = undefined;
        const next = queued;
        queued = undefined;
        if (next && !isStopping) requestReload(next);
      });
  };

  await reload("starting");
  const base = `http://127.0.0.1:${ports.web}`;
  say(`playground: ${base}/${slug}/playground`);
  say(`API: ${base}/${slug}/v1 (and ${base}/v1); loopback callers need no token`);
  say(
    `ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s; watching ${dir}${process.stdin.isTTY ? " (Enter reloads)" : ""}`,
  );

  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();
  const watcher = watch(dir, { ignoreInitial: true, ignored: (file) => isIgnored(dir, file) });
  watcher.on("all", (_event, file) => {
    changed.add(path.relative(dir, file));
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      requestReload(
        `changed: ${files.slice(0, 3).join(", ")}${files.length > 3 ? ` and ${files.length - 3} more` : ""}`,
      );
    }, settleMs);
  });
  cleanups.push(() => (clearTimeout(timer), watcher.close()));
  if (process.stdin.isTTY) {
    const keys = readline.createInterface({ input: process.stdin });
    keys.on("line", () => requestReload("Enter"));
    cleanups.push(() => keys.close());
  }
  return -1;
}

export const devCommandSpec = defineCommand({
  name: "dev",
  group: "develop",
  summary: "Serve the folder's agent with its playground on this machine; reload on every edit",
  details:
    "Single-agent local mode: direct loopback callers are the local principal, no token needed, and /v1/dev/* (schedule dispatch, evals) is open to them. Sessions survive reloads and restarts.",
  flags: {
    dir: dirFlag,
    port: {
      type: "string",
      value: "<n>",
      description: "The web port (default 3000; the next free one when busy; 0: any)",
    },
    slug: { type: "string", value: "<agent>", description: "The agent's slug (default: the folder's name)" },
    "state-root": {
      type: "string",
      value: "<dir>",
      description: "Where sessions and durable state live (default ~/.local/state/agentfold/dev/<agent>-<hash>)",
    },
  },
  examples: ["agentfold dev --dir examples/support-desk", "agentfold dev --port 0 --state-root /tmp/desk-dev"],
  run: ({ flags }) =>
    devCommand({ dir: flags.dir ?? ".", port: flags.port, slug: flags.slug, stateRoot: flags["state-root"] }),
});
