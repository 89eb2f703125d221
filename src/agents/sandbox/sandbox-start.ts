// Starting a sandbox's process: the egress proxy that is its only way out, the child itself
// (node inside bubblewrap, or node alone when unisolated) and its wiring: output lines, the
// first message that says it is ready, messages after it, the exit that fails the calls in
// flight, and the memory watchdog.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { handOver } from "@/agents/runtime/workspace-owner";
import { env } from "@/env";
import { startEgressProxy, type EgressProxy } from "./egress-proxy";
import { bubblewrapArgs, egressSocketInside, resolveIsolation, type SandboxIsolation } from "./isolation";
import { permissionFlags } from "./node-flags";
import { redactSecrets } from "./redact-secrets";
import { SandboxError } from "./sandbox-error";
import { onChildMessage, type ChildMessage } from "./sandbox-messages";
import { childOf, readSandboxPid, rssMb } from "./sandbox-process";
import { kill } from "./sandbox-stop";
import type { Running, SandboxManager } from "./sandbox-types";

export function startProxy(sb: SandboxManager): Promise<EgressProxy> {
  sb.proxyDir ??= fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-egress-"));
  return startEgressProxy({
    socketPath: path.join(sb.proxyDir, "egress.sock"),
    policy: sb.options.egress ?? { kind: "none" },
    resolve: sb.options.resolveEgress,
    onRefused: (target, reason) =>
      sb.options.onLog?.({ stream: "stderr", text: `egress to ${target} refused: ${reason}` }),
  });
}

export function spawnProcess(sb: SandboxManager, egressSocket: string): Running {
  const { child, isolation } = spawnChild(sb, egressSocket);
  const state: Running = { child, pending: new Map(), stderrTail: [], ready: Promise.resolve() };
  if (isolation.kind === "bubblewrap") readSandboxPid(child, (pid) => (state.initPid = pid));
  else state.nodePid = child.pid;
  readOutput(sb, state);
  state.ready = readyOf(sb, state);
  state.ready.catch(() => undefined);
  child.on("message", (message: ChildMessage) => onChildMessage(sb, state, message));
  child.once("exit", () => onExit(sb, state, watchdog));
  const watchdog = watchMemory(sb, state);
  return state;
}

function spawnChild(sb: SandboxManager, egressSocket: string): { child: ChildProcess; isolation: SandboxIsolation } {
  const { options } = sb;
  for (const dir of options.writableDirs) {
    const made = fs.mkdirSync(dir, { recursive: true });
    if (made) handOver(dir, made);
  }
  const isolation = options.isolation ?? defaultIsolation();
  const bundlePath = path.resolve(options.bundlePath);
  const bundleDir = path.dirname(bundlePath);
  const projectDir = path.resolve(options.projectDir ?? bundleDir);
  const readOnly = [bundleDir, projectDir, undiciDir];
  const nodeArgs = nodeArgsOf(sb, { isolation, bundlePath, readOnly, egressSocket });
  const childEnv = { HOME: "/tmp", TMPDIR: "/tmp", ...options.env } as Record<string, string> as NodeJS.ProcessEnv;
  const child: ChildProcess =
    isolation.kind === "bubblewrap"
      ? spawn(
          isolation.bwrapPath,
          bubblewrapArgs({
            readOnly,
            writable: options.writableDirs,
            egressSocket,
            cwd: projectDir,
            command: [process.execPath, ...nodeArgs],
          }),
          {
            env: childEnv,
            stdio: ["ignore", "pipe", "pipe", "pipe", "ipc"],
            serialization: "json",
          },
        )
      : spawn(process.execPath, nodeArgs, {
          cwd: projectDir,
          env: childEnv,
          stdio: ["ignore", "pipe", "pipe", "ipc"],
          serialization: "json",
        });
  return { child, isolation };
}

function nodeArgsOf(
  sb: SandboxManager,
  spec: { isolation: SandboxIsolation; bundlePath: string; readOnly: string[]; egressSocket: string },
): string[] {
  const { options } = sb;
  return [
    ...(options.nodePermissions === false
      ? []
      : permissionFlags({ readableDirs: spec.readOnly, writableDirs: options.writableDirs })),
    `--max-old-space-size=${sb.memoryMb}`,
    "--no-warnings",
    "--enable-source-maps",
    spec.bundlePath,
    `--agentfold-egress=${spec.isolation.kind === "bubblewrap" ? egressSocketInside : spec.egressSocket}`,
    `--agentfold-undici=${undiciEntry}`,
  ];
}

function readOutput(sb: SandboxManager, state: Running): void {
  for (const stream of ["stdout", "stderr"] as const) {
    readline.createInterface({ input: state.child[stream]! }).on("line", (text) => {
      if (stream === "stderr") state.stderrTail = [...state.stderrTail.slice(-20), text];
      sb.options.onLog?.({ stream, text: redactSecrets(text, sb.secretValues) });
    });
  }
}

function readyOf(sb: SandboxManager, state: Running): Promise<void> {
  const { child } = state;
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new SandboxError("failed_to_start", "the sandbox did not start within 10 s")),
      10_000,
    );
    child.once("message", () => (clearTimeout(timer), resolve()));
    child.once("exit", () => (clearTimeout(timer), reject(state.failure ?? exitFailure(sb, state))));
  });
}

function onExit(sb: SandboxManager, state: Running, watchdog: NodeJS.Timeout): void {
  const failure = state.failure ?? exitFailure(sb, state);
  for (const pending of state.pending.values()) clearTimeout(pending.timer), pending.reject(failure);
  state.pending.clear();
  clearInterval(watchdog);
  if (sb.running === state) sb.running = undefined;
}

function watchMemory(sb: SandboxManager, state: Running): NodeJS.Timeout {
  // The heap cap does not cover Buffers and other off-heap memory; watch the whole process.
  const watchdog = setInterval(() => {
    state.nodePid ??= state.initPid && childOf(state.initPid);
    if (rssMb(state.nodePid) > sb.memoryMb * 2)
      kill(
        state,
        new SandboxError("out_of_memory", `the sandbox used more than ${sb.memoryMb * 2} MB of memory and was stopped`),
      );
  }, 250);
  watchdog.unref();
  return watchdog;
}

function exitFailure(sb: SandboxManager, state: Running): SandboxError {
  const { exitCode, signalCode } = state.child;
  if (state.stderrTail.some((line) => /heap out of memory|Reached heap limit/.test(line))) {
    return new SandboxError(
      "out_of_memory",
      `the sandbox ran out of memory (${sb.memoryMb} MB heap cap) and was restarted`,
    );
  }
  // A process that could not start says why on its last line (bwrap's own errors too).
  const lines = state.stderrTail.map((line) => line.trim()).filter(Boolean);
  const said = lines.findLast((line) => /^(\w*Error\b|bwrap:)/.test(line)) ?? lines.at(-1);
  return new SandboxError(
    "crashed",
    `the sandbox exited (${signalCode ?? `code ${exitCode}`}) and was restarted${said ? `: ${redactSecrets(said, sb.secretValues)}` : ""}`,
  );
}

// fetch() in the sandbox is routed with the platform's own undici (egress-client.ts). Found by
// path, not require.resolve: inside the Next.js bundle module ids replace resolved paths.
const platformRoot = import.meta.dirname
  ? path.resolve(import.meta.dirname, "../../..")
  : /*turbopackIgnore: true*/ process.cwd();
const undiciDir = path.join(/*turbopackIgnore: true*/ platformRoot, "node_modules", "undici");
const undiciEntry = path.join(undiciDir, "index.js");

let isolationCache: SandboxIsolation | undefined;
export function defaultIsolation(): SandboxIsolation {
  isolationCache ??= resolveIsolation(env().AGENTFOLD_SANDBOX);
  return isolationCache;
}
