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
  exited: Promise<ExitInfo>;
  /** Every output line, for start-up readiness checks. */
  onLine: (listener: (line: string) => void) => void;
  stop: (timeoutMs?: number) => Promise<void>;
};

export type Log = (line: string) => void;

/** Every child not yet exited, so a shutdown can reach ones whose start-up was interrupted. */
const liveChildren = new Set<RunningChild>();

export async function stopAllChildren(): Promise<void> {
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
  const listeners = new Set<(line: string) => void>();
  const file = spec.logFile ? fs.createWriteStream(spec.logFile, { flags: "a" }) : undefined;
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on("line", (line) => {
      for (const listener of listeners) listener(line);
      if (file) file.write(line + "\n");
      else log(`[${spec.name}] ${line}`);
    });
  }
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once("exit", (code, signal) => {
      file?.end();
      resolve({ code, signal });
    });
    child.once("error", (error) => {
      log(`[${spec.name}] failed to start: ${error.message}`);
      resolve({ code: 1, signal: null });
    });
  });

  async function stop(timeoutMs = 15_000): Promise<void> {
    signalGroup(pid, spec.stopSignal ?? "SIGTERM");
    const deadline = Date.now() + timeoutMs;
    while (isGroupAlive(pid) && Date.now() < deadline) await sleep(50);
    if (isGroupAlive(pid)) {
      log(`${spec.name} did not stop within ${timeoutMs / 1000} s; killing it`);
      signalGroup(pid, "SIGKILL");
      // Bounded: an unreaped zombie still counts as alive and no signal removes it.
      const killDeadline = Date.now() + 5_000;
      while (isGroupAlive(pid) && Date.now() < killDeadline) await sleep(50);
    }
    await exited;
  }

  const running: RunningChild = { pid, exited, onLine: (listener) => listeners.add(listener), stop };
  liveChildren.add(running);
  void exited.then(() => liveChildren.delete(running));
  return running;
}

export function describeExit({ code, signal }: ExitInfo): string {
  return signal ? `killed by ${signal}` : `exited with code ${code}`;
}
