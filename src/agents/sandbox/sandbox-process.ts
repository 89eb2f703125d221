// The host's view of a sandbox's processes, read from /proc: bwrap's init pid, the node process
// under it, its resident memory; and a kill that does not mind the process being gone already.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";

const rssPageBytes = 4096;

export function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const resident = Number(fs.readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]);
    return (resident * rssPageBytes) / 1024 / 1024;
  } catch {
    return 0;
  }
}

export function signalQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** The first process whose parent is `parent` (the node process under bwrap's init). */
export function childOf(parent: number): number | undefined {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent) return Number(entry);
    } catch {
      // ended meanwhile
    }
  }
  return undefined;
}

/** bwrap writes `{"child-pid": N, ...}` (its init inside the new PID namespace) to fd 3. */
export function readSandboxPid(child: ChildProcess, found: (pid: number) => void): void {
  let text = "";
  const info = child.stdio[3] as NodeJS.ReadableStream | null;
  info?.on("data", (chunk) => {
    text += chunk;
    const match = /"child-pid":\s*(\d+)/.exec(text);
    if (match) found(Number(match[1]));
  });
  info?.on("error", () => undefined);
}
