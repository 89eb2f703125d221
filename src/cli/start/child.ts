// Child processes of the supervisor. Each runs in its own process group, so a terminal's Ctrl-C
// reaches only the supervisor (which stops children in order) and stopping a child stops all of
// its descendants too (`next start` forks a server that would otherwise keep the port).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";
import { sleep } from "./wait";

export type ChildSpec = {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd?: string;
  uid?: number;
  gid?: number;
  /** Append output here instead of the supervisor's terminal (noisy servers). */
  logFile?: string;
  /** Signal that asks the child to shut down cleanly. */
  stopSignal?: NodeJS.Signals;
};

export type ExitInfo = { code: number | null; signal: NodeJS.Signals | null };

export type RunningChild = {
  pid: number;
  startedAt: number;
  exited: Promise<ExitInfo>;
  /** Every output line, for start-up readiness checks. */
  onLine: (listener: (line: string) => void) => void;
  /** The last lines it printed, for the message of a part that keeps dying. */
  recentOutput: () => string[];
  /** Kills what is left of its process group once it has exited (orphaned Postgres backends,
   * a sandbox a killed worker started), so a restart finds its port and data free. */
  reap: () => Promise<void>;
  stop: (timeoutMs?: number) => Promise<void>;
};

const keptLines = 20;

export type Log = (line: string) => void;

/** Every child not yet exited, so a shutdown can reach ones whose start-up was interrupted. */
const liveChildren = new Set<RunningChild>();

let isStoppingAll = false;

/** Whether the process is stopping every child: nothing may be restarted from then on. */
export function isStoppingAllChildren(): boolean {
  return isStoppingAll;
}

export async function stopAllChildren(): Promise<void> {
  isStoppingAll = true;
  await Promise.all([...liveChildren].map((child) => child.stop(5_000)));
}

function isGroupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}

export function startChild(spec: ChildSpec, log: Log): RunningChild {
  const child: ChildProcess = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env as NodeJS.ProcessEnv,
    uid: spec.uid,
    gid: spec.gid,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`Could not start ${spec.name} (${spec.command})`);
  const pid = child.pid;
  const startedAt = Date.now();
  const listeners = new Set<(line: string) => void>();
  const recent: string[] = [];
  const file = spec.logFile ? fs.createWriteStream(spec.logFile, { flags: "a" }) : undefined;
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on("line", (line) => {
      for (const listener of listeners) listener(line);
      recent.push(line);
      if (recent.length > keptLines) recent.shift();
      if (file) file.write(line + "\n");
      else log(`[${spec.name}] ${line}`);
    });
  }
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once("exit", (code, signal) => {
      let isDone = false;
      const done = () => {
        if (isDone) return;
        isDone = true;
        clearTimeout(timer);
        file?.end();
        resolve({ code, signal });
      };
      // Its last lines can arrive after 'exit' (they say why it died); a descendant that keeps
      // the pipes open must not hold the exit up, hence the bound.
      const timer = setTimeout(done, 500);
      child.once("close", done);
    });
    child.once("error", (error) => {
      log(`[${spec.name}] failed to start: ${error.message}`);
      resolve({ code: 1, signal: null });
    });
  });

  async function killGroup(): Promise<void> {
    signalGroup(pid, "SIGKILL");
    // Bounded: an unreaped zombie still counts as alive and no signal removes it.
    const deadline = Date.now() + 5_000;
    while (isGroupAlive(pid) && Date.now() < deadline) await sleep(50);
  }

  async function reap(): Promise<void> {
    await exited;
    if (isGroupAlive(pid)) await killGroup();
  }

  async function stop(timeoutMs = 15_000): Promise<void> {
    signalGroup(pid, spec.stopSignal ?? "SIGTERM");
    const deadline = Date.now() + timeoutMs;
    while (isGroupAlive(pid) && Date.now() < deadline) await sleep(50);
    if (isGroupAlive(pid)) {
      log(`${spec.name} did not stop within ${timeoutMs / 1000} s; killing it`);
      await killGroup();
    }
    await exited;
  }

  const running: RunningChild = {
    pid,
    startedAt,
    exited,
    onLine: (listener) => listeners.add(listener),
    recentOutput: () => [...recent],
    reap,
    stop,
  };
  liveChildren.add(running);
  void exited.then(() => liveChildren.delete(running));
  return running;
}

export function describeExit({ code, signal }: ExitInfo): string {
  return signal ? `killed by ${signal}` : `exited with code ${code}`;
}
