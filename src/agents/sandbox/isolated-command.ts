// A command of an agent's own (a stdio MCP server) run inside the same walls as the agent's
// sandbox (isolation.ts): its bundle and project read-only, its workspaces and state writable, no
// network at all (not even the egress proxy: a program that is not ours cannot be taught to use
// a proxy on a Unix socket), nobody's uid, and the sandbox's memory limit watched from here. Its
// stdin and stdout are the pipes the caller speaks over; stderr lines go to onStderr.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { bubblewrapArgs, type SandboxIsolation } from "./isolation";
import { childOf, readSandboxPid, rssMb, signalQuietly } from "./sandbox-process";

export type CommandSpec = {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Relative to the project folder; must stay inside it. */
  cwd?: string;
};

export type IsolatedCommandOptions = {
  isolation: SandboxIsolation;
  projectDir: string;
  readOnly: string[];
  writable: string[];
  memoryMb: number;
  onStderr?: (line: string) => void;
};

export type IsolatedCommand = {
  child: ChildProcess;
  /** Why it ended early (over its memory), once it has. */
  failure: () => string | undefined;
  kill: () => void;
};

export function spawnIsolatedCommand(spec: CommandSpec, options: IsolatedCommandOptions): IsolatedCommand {
  const projectDir = path.resolve(options.projectDir);
  const cwd = path.resolve(projectDir, spec.cwd ?? ".");
  if (cwd !== projectDir && !cwd.startsWith(projectDir + path.sep))
    throw new Error(`cwd ${spec.cwd} is outside the agent's project folder`);
  // `node` is the platform's own Node, mounted into every sandbox; other names are looked up on
  // the sandbox's PATH (the system's /usr/bin and /bin only).
  const command = spec.command === "node" ? process.execPath : spec.command;
  const env: Record<string, string> = {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: "/tmp",
    TMPDIR: "/tmp",
    ...spec.env,
  };
  const { isolation } = options;
  const isolated = isolation.kind === "bubblewrap";
  const child: ChildProcess =
    isolation.kind === "bubblewrap"
      ? spawn(
          isolation.bwrapPath,
          bubblewrapArgs({
            readOnly: [...options.readOnly, projectDir],
            writable: options.writable,
            cwd,
            command: [command, ...(spec.args ?? [])],
          }),
          { env: env as unknown as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe", "pipe"] },
        )
      : spawn(command, spec.args ?? [], {
          cwd,
          env: env as unknown as NodeJS.ProcessEnv,
          stdio: ["pipe", "pipe", "pipe"],
        });
  let initPid: number | undefined;
  let failure: string | undefined;
  if (isolated) readSandboxPid(child, (pid) => (initPid = pid));
  const kill = () => {
    if (initPid) signalQuietly(initPid);
    child.kill("SIGKILL");
  };
  // The whole program under bwrap's init, not a heap cap: the command may not be Node at all.
  const watchdog = setInterval(() => {
    const pid = isolated ? (initPid ? childOf(initPid) : undefined) : child.pid;
    if (rssMb(pid) > options.memoryMb * 2) {
      failure = `it used more than ${options.memoryMb * 2} MB of memory and was stopped`;
      kill();
    }
  }, 250);
  watchdog.unref();
  child.once("exit", () => clearInterval(watchdog));
  readline.createInterface({ input: child.stderr! }).on("line", (line) => options.onStderr?.(line));
  return { child, failure: () => failure, kill };
}
