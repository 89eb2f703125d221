// Runs `agentfold start` as a real child process, for the supervisor's integration tests and the
// Playwright harness: free ports, a temporary data directory, and helpers to read its output.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { getFreePort } from "@/cli/start/ports";
import { projectRoot } from "@/cli/start/project";
import { sleep } from "@/cli/start/wait";

const run = promisify(execFile);

export type StackPorts = Record<
  "PORT" | "WORKER_PORT" | "POSTGRES_PORT" | "RESTATE_INGRESS_PORT" | "RESTATE_ADMIN_PORT" | "RESTATE_NODE_PORT",
  string
>;

export async function freeStackPorts(): Promise<StackPorts> {
  return {
    PORT: String(await getFreePort()),
    WORKER_PORT: String(await getFreePort()),
    POSTGRES_PORT: String(await getFreePort()),
    RESTATE_INGRESS_PORT: String(await getFreePort()),
    RESTATE_ADMIN_PORT: String(await getFreePort()),
    RESTATE_NODE_PORT: String(await getFreePort()),
  };
}

export function makeDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-data-"));
}

export type SupervisorProcess = {
  child: ChildProcess;
  output: () => string;
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  /** Sends a signal and resolves with the exit code (null when killed by a signal). */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  exited: Promise<number | null>;
};

// Variables of an outer Agentfold (or of the test runner) must not leak into the child.
const stackVariables = [
  "DATABASE_URL",
  "RESTATE_INGRESS_URL",
  "RESTATE_ADMIN_URL",
  "RESTATE_IDENTITY_KEYS",
  "AGENTFOLD_UNSIGNED_RESTATE",
  "WORKER_URL",
  "AGENTFOLD_DATA_DIR",
  "AUTH_SECRET",
  "NEXTAUTH_URL",
  "AGENTFOLD_PUBLIC_URL",
];

function outerEnvironment(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !stackVariables.includes(key)));
}

/** Runs `agentfold <args>` against a running stack's embedded database; resolves with its stdout. */
export function stackCli(dataDir: string, ports: StackPorts): (...args: string[]) => Promise<string> {
  // The bootstrap reaches this stack's database, whatever a developer's saved logins say.
  const stack: Record<string, string> = {
    AGENTFOLD_DATA_DIR: dataDir,
    POSTGRES_PORT: ports.POSTGRES_PORT,
    AGENTFOLD_CONFIG_DIR: path.join(dataDir, "cli-config"),
  };
  const env = { ...outerEnvironment(), ...stack } as NodeJS.ProcessEnv;
  return async (...args) => {
    const bin = path.join(projectRoot, "bin", "agentfold.mjs");
    const { stdout } = await run(process.execPath, [bin, ...args], { cwd: projectRoot, env });
    return stdout.trim();
  };
}

export function spawnSupervisor(env: Record<string, string>): SupervisorProcess {
  const baseEnv = outerEnvironment();
  // NODE_ENV=test from the runner would leak into `next build`; the supervisor sets its own.
  delete baseEnv.NODE_ENV;
  const child = spawn(process.execPath, [path.join(projectRoot, "bin", "agentfold.mjs"), "start"], {
    cwd: projectRoot,
    env: { ...baseEnv, ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  async function waitForOutput(pattern: RegExp, timeoutMs = 180_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    let isExited = false;
    void exited.then(() => (isExited = true));
    while (Date.now() < deadline) {
      const match = text.match(pattern);
      if (match) return match;
      if (isExited) break;
      await sleep(100);
    }
    throw new Error(`supervisor output never matched ${pattern}; output so far:\n${text}`);
  }

  async function stop(signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  }

  return { child, output: () => text, waitForOutput, stop, exited };
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Cluster mode's processes are numbered: restate-1, worker-2, web-1 …
type Component = "postgres" | "restate" | "worker" | "web" | `${"restate" | "worker" | "web"}-${number}`;

/** The pid the supervisor printed for a component in its ready lines. */
export function printedPid(output: string, component: Component): number {
  const line = output.split("\n").find((l) => l.startsWith(`agentfold: ${component} `));
  const match = line?.match(/pid (\d+)/);
  if (!match) throw new Error(`no pid printed for ${component}:\n${output}`);
  return Number(match[1]);
}

/** The pid of a component's latest run: its last restart's, or the one of the ready lines. */
export function currentPid(output: string, component: Component): number {
  const restarts = [...output.matchAll(new RegExp(`agentfold: ${component} restarted \\(pid (\\d+)\\)`, "g"))];
  return restarts.length > 0 ? Number(restarts.at(-1)![1]) : printedPid(output, component);
}
