// How a sandbox process is walled in: bubblewrap gives it its own PID, network, IPC and UTS
// namespaces (no route anywhere but an empty loopback; it sees and can signal only itself) and a
// file system of exactly what it is given: the system's /usr, its bundle and project files
// read-only, its writable directories, a private /tmp, and the egress proxy's socket. The
// platform running as root drops it to the unprivileged user below; otherwise it runs as the
// platform's user inside a user namespace. docs/decisions.md, "Sandbox isolation", says why.
import fs from "node:fs";
import path from "node:path";
import { SandboxError } from "./sandbox-error";

export type SandboxIsolation = { kind: "bubblewrap"; bwrapPath: string } | { kind: "unisolated" };

/** Who sandbox processes (and the files they own) run as when the platform runs as root. */
export const sandboxUser = { uid: 65534, gid: 65534 };

/** Where the egress proxy's socket appears inside a sandbox. */
export const egressSocketInside = "/run/agentfold/egress.sock";

export type IsolatedSpawn = {
  readOnly: string[];
  writable: string[];
  /** The egress proxy's socket, bound at egressSocketInside; without it, no way out at all. */
  egressSocket?: string;
  cwd: string;
  command: string[];
};

export function isRunningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

let warned = false;

/** The isolation the setting asks for; refuses to run agent code unisolated unless told to. */
export function resolveIsolation(setting: "bubblewrap" | "unisolated"): SandboxIsolation {
  if (setting === "unisolated") {
    if (!warned)
      console.error(
        "agentfold: WARNING: AGENTFOLD_SANDBOX=unisolated: agent code runs WITHOUT isolation (network, processes, files). Single-user local use only.",
      );
    warned = true;
    return { kind: "unisolated" };
  }
  const bwrapPath = findBwrap();
  if (!bwrapPath) {
    throw new SandboxError(
      "failed_to_start",
      "agent code runs only inside bubblewrap, which is not installed: apt-get install -y bubblewrap " +
        "(for single-user local use only, AGENTFOLD_SANDBOX=unisolated runs it without isolation)",
    );
  }
  return { kind: "bubblewrap", bwrapPath };
}

// Where Debian's package (and a build from source) puts it. Not looked up on PATH: the binary
// that walls agent code in is the system's, not whatever a PATH entry offers.
function findBwrap(): string | undefined {
  return ["/usr/bin/bwrap", "/usr/local/bin/bwrap"].find((candidate) => {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** bwrap's arguments for `spec`; the sandboxed command's host pid is written to fd 3 as JSON. */
export function bubblewrapArgs(spec: IsolatedSpawn): string[] {
  const asRoot = isRunningAsRoot();
  const args = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];
  // Unprivileged: a user namespace is what lets bwrap build the others.
  if (!asRoot) args.push("--unshare-user");
  // bwrap's own init is pid 1: it dies with bwrap (the node process, another user, would not),
  // and the kernel then ends everything in the namespace.
  args.push("--die-with-parent", "--new-session", "--info-fd", "3");
  args.push("--ro-bind", "/usr", "/usr");
  for (const top of ["/bin", "/lib", "/lib64", "/sbin"]) {
    const stat = fs.lstatSync(top, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) args.push("--symlink", fs.readlinkSync(top), top);
    else if (stat?.isDirectory()) args.push("--ro-bind", top, top);
  }
  args.push("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp");
  const made = new Set<string>(["/", "/usr", "/tmp", "/proc", "/dev"]);
  const mounted: string[] = ["/usr"];
  const mount = (flag: string, source: string, target: string) => {
    if (!mounted.some((root) => target === root || target.startsWith(root + "/"))) {
      // Folders on the way are the sandbox's own: traversable, not listable.
      const parts = path.dirname(target).split("/").filter(Boolean);
      for (let i = 1; i <= parts.length; i++) {
        const dir = "/" + parts.slice(0, i).join("/");
        if (!made.has(dir)) args.push("--perms", "0711", "--dir", dir), made.add(dir);
      }
    }
    args.push(flag, source, target);
    mounted.push(target);
  };
  if (!process.execPath.startsWith("/usr/")) mount("--ro-bind", process.execPath, process.execPath);
  const sorted = (dirs: string[]) => [...new Set(dirs.map((dir) => path.resolve(dir)))].sort();
  for (const dir of sorted(spec.readOnly)) mount("--ro-bind", dir, dir);
  for (const dir of sorted(spec.writable)) mount("--bind", dir, dir);
  if (spec.egressSocket) {
    args.push("--perms", "0711", "--dir", "/run", "--perms", "0711", "--dir", path.dirname(egressSocketInside));
    args.push("--bind", spec.egressSocket, egressSocketInside);
  }
  args.push("--chdir", spec.cwd, "--");
  if (asRoot) {
    args.push(
      "/usr/bin/setpriv",
      `--reuid=${sandboxUser.uid}`,
      `--regid=${sandboxUser.gid}`,
      "--clear-groups",
      "--no-new-privs",
      "--inh-caps=-all",
      "--bounding-set=-all",
    );
  }
  return [...args, ...spec.command];
}
