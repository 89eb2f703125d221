// The host side of a sandbox: one child process, started on first use, walled in by
// isolation.ts and driven over IPC. Every call has a deadline; a call that times out or a
// process that crashes (including running out of memory) fails the calls in flight with a
// SandboxError and the next call starts a fresh process. An idle sandbox stops itself.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { handOver } from "@/agents/runtime/workspace-owner";
import { env } from "@/env";
import { createCallLog, type CallLog, type OnCallLog } from "./call-logs";
import { answerHostCall, type OnHostCall } from "./host-call-answer";
import { redactSecrets } from "./redact-secrets";
import type { EgressPolicy } from "./egress-policy";
import { startEgressProxy, type EgressProxy, type ResolveTarget } from "./egress-proxy";
import { bubblewrapArgs, egressSocketInside, resolveIsolation, type SandboxIsolation } from "./isolation";
import { permissionFlags } from "./node-flags";
import type {
  HostCall,
  SandboxMethod,
  SandboxMethods,
  SandboxLog,
  SandboxPartial,
  SandboxRequest,
  SandboxResponse,
} from "./protocol";
import { SandboxError } from "./sandbox-error";
import { childOf, readSandboxPid, rssMb, signalQuietly } from "./sandbox-process";

export { SandboxError, type SandboxFailure } from "./sandbox-error";

export type SandboxOptions = {
  bundlePath: string;
  /** The uploaded project (read-only): the process's working directory, so a tool reads
   * `knowledge/faq.md` beside `bot/` by its relative path. */
  projectDir?: string;
  /** The only directories agent code may write (its workspaces root, its state root). */
  writableDirs: string[];
  /** Variables every call sees; the platform's own environment never reaches the sandbox. */
  env?: Record<string, string>;
  /** The agent's declared secrets, read before each call (so a rotation reaches the next call)
   * and handed to agent code as process.env. */
  readSecrets?: () => Promise<Record<string, string>>;
  /** Where agent code may connect (egress-policy.ts); nothing when unset. */
  egress?: EgressPolicy;
  /** How egress names resolve (tests); public DNS answers only by default. */
  resolveEgress?: ResolveTarget;
  /** Defaults to AGENTFOLD_SANDBOX. */
  isolation?: SandboxIsolation;
  /** Node's permission model as a second wall inside bubblewrap (default on); tests turn it off
   * to prove the outer wall holds on its own. */
  nodePermissions?: boolean;
  memoryMb?: number;
  defaultTimeoutMs?: number;
  idleMs?: number;
  onLog?: (line: { stream: "stdout" | "stderr"; text: string }) => void;
  /** What agent code printed during a call, with the call (call-logs.ts); else it goes to onLog. */
  onCallLog?: OnCallLog;
  /** Serves agent code's host calls, in the context of the request they belong to. */
  onHostCall?: OnHostCall;
};

type Pending = {
  resolve: (value: unknown) => void;
  reject: (error: SandboxError) => void;
  timer: NodeJS.Timeout;
  hostContext?: unknown;
  /** Aborted when the call ends: host calls still serving it (a long wait) stop. */
  ended: AbortController;
  onPartial?: (result: unknown) => void;
  log?: CallLog;
};
type Running = {
  child: ChildProcess;
  /** Host pids: bwrap's init, pid 1 of the sandbox's namespace (killing it ends everything in
   * it), and the node process under it, whose memory is watched. */
  initPid?: number;
  nodePid?: number;
  ready: Promise<void>;
  pending: Map<number, Pending>;
  stderrTail: string[];
  failure?: SandboxError;
  /** The secrets last handed to this process, as sent. */
  sentEnv?: string;
};

export type Sandbox = {
  call: <M extends SandboxMethod>(
    method: M,
    params: SandboxMethods[M]["params"],
    options?: CallOptions,
  ) => Promise<SandboxMethods[M]["result"]>;
  stop: () => Promise<void>;
  pid: () => number | undefined;
};

/** `signal`: aborting it kills the process (agent code cannot be interrupted any other way), so
 * the other calls in flight on this sandbox fail as crashed and the next call starts afresh. */
export type CallOptions = {
  timeoutMs?: number;
  signal?: AbortSignal;
  hostContext?: unknown;
  /** What the call tells before it ends (runRoute's response). */
  onPartial?: (result: unknown) => void;
};

export function createSandbox(options: SandboxOptions): Sandbox {
  const { memoryMb = 256, defaultTimeoutMs = 60_000, idleMs = 5 * 60_000 } = options;
  let running: Running | undefined;
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | undefined;

  let proxy: Promise<EgressProxy> | undefined;
  /** Every secret value ever handed to agent code here, masked in everything that comes back:
   * a value rotated out may still reach a log line written before the rotation but read after
   * it (stdout is read apart from responses), and agent code may have kept it. */
  let secretValues: string[] = [];
  let proxyDir: string | undefined;

  function startProxy(): Promise<EgressProxy> {
    proxyDir ??= fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-egress-"));
    return startEgressProxy({
      socketPath: path.join(proxyDir, "egress.sock"),
      policy: options.egress ?? { kind: "none" },
      resolve: options.resolveEgress,
      onRefused: (target, reason) =>
        options.onLog?.({ stream: "stderr", text: `egress to ${target} refused: ${reason}` }),
    });
  }

  function spawnProcess(egressSocket: string): Running {
    for (const dir of options.writableDirs) {
      const made = fs.mkdirSync(dir, { recursive: true });
      if (made) handOver(dir, made);
    }
    const isolation = options.isolation ?? defaultIsolation();
    const bundlePath = path.resolve(options.bundlePath);
    const bundleDir = path.dirname(bundlePath);
    const projectDir = path.resolve(options.projectDir ?? bundleDir);
    const readOnly = [bundleDir, projectDir, undiciDir];
    const nodeArgs = [
      ...(options.nodePermissions === false
        ? []
        : permissionFlags({ readableDirs: readOnly, writableDirs: options.writableDirs })),
      `--max-old-space-size=${memoryMb}`,
      "--no-warnings",
      "--enable-source-maps",
      bundlePath,
      `--agentfold-egress=${isolation.kind === "bubblewrap" ? egressSocketInside : egressSocket}`,
      `--agentfold-undici=${undiciEntry}`,
    ];
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
    const state: Running = { child, pending: new Map(), stderrTail: [], ready: Promise.resolve() };
    if (isolation.kind === "bubblewrap") readSandboxPid(child, (pid) => (state.initPid = pid));
    else state.nodePid = child.pid;
    for (const stream of ["stdout", "stderr"] as const) {
      readline.createInterface({ input: child[stream]! }).on("line", (text) => {
        if (stream === "stderr") state.stderrTail = [...state.stderrTail.slice(-20), text];
        options.onLog?.({ stream, text: redactSecrets(text, secretValues) });
      });
    }
    state.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new SandboxError("failed_to_start", "the sandbox did not start within 10 s")),
        10_000,
      );
      child.once("message", () => (clearTimeout(timer), resolve()));
      child.once("exit", () => (clearTimeout(timer), reject(state.failure ?? exitFailure(state))));
    });
    state.ready.catch(() => undefined);
    child.on("message", (message: SandboxResponse | HostCall | SandboxPartial | SandboxLog) => {
      if ("log" in message) callLog(state, message);
      else if ("hostCall" in message) void serveHostCall(state, message);
      else if ("partial" in message) state.pending.get(message.partial)?.onPartial?.(partialResult(message.result));
      else settle(state, message);
    });
    child.once("exit", () => {
      const failure = state.failure ?? exitFailure(state);
      for (const pending of state.pending.values()) clearTimeout(pending.timer), pending.reject(failure);
      state.pending.clear();
      clearInterval(watchdog);
      if (running === state) running = undefined;
    });
    // The heap cap does not cover Buffers and other off-heap memory; watch the whole process.
    const watchdog = setInterval(() => {
      state.nodePid ??= state.initPid && childOf(state.initPid);
      if (rssMb(state.nodePid) > memoryMb * 2)
        kill(
          state,
          new SandboxError("out_of_memory", `the sandbox used more than ${memoryMb * 2} MB of memory and was stopped`),
        );
    }, 250);
    watchdog.unref();
    return state;
  }

  function exitFailure(state: Running): SandboxError {
    const { exitCode, signalCode } = state.child;
    if (state.stderrTail.some((line) => /heap out of memory|Reached heap limit/.test(line))) {
      return new SandboxError(
        "out_of_memory",
        `the sandbox ran out of memory (${memoryMb} MB heap cap) and was restarted`,
      );
    }
    // A process that could not start says why on its last line (bwrap's own errors too).
    const lines = state.stderrTail.map((line) => line.trim()).filter(Boolean);
    const said = lines.findLast((line) => /^(\w*Error\b|bwrap:)/.test(line)) ?? lines.at(-1);
    return new SandboxError(
      "crashed",
      `the sandbox exited (${signalCode ?? `code ${exitCode}`}) and was restarted${said ? `: ${redactSecrets(said, secretValues)}` : ""}`,
    );
  }

  function kill(state: Running, failure: SandboxError): void {
    state.failure ??= failure;
    // The node process runs as another user, which clears the parent-death signal bwrap set: it
    // goes down with its namespace, whose init is killed here.
    if (state.initPid) signalQuietly(state.initPid);
    state.child.kill("SIGKILL");
  }

  async function serveHostCall(state: Running, call: HostCall): Promise<void> {
    const reply = await answerHostCall(call, state.pending.get(call.requestId), options.onHostCall);
    if (state.child.connected) state.child.send(reply);
  }

  /** A line of a call still running goes with its call; any other to the process's log. */
  function callLog(state: Running, message: SandboxLog): void {
    const pending = state.pending.get(message.log);
    if (pending?.log) pending.log.add(message);
    else
      options.onLog?.({
        stream: message.level === "error" || message.level === "warn" ? "stderr" : "stdout",
        text: redactSecrets(message.text, secretValues),
      });
  }

  /** Partial answers are bound for the same places as whole ones: no secret values. */
  function partialResult(result: unknown): unknown {
    return secretValues.length > 0 ? redactJson(result, secretValues) : result;
  }

  function settle(state: Running, response: SandboxResponse): void {
    const pending = state.pending.get(response.id);
    if (!pending) return;
    state.pending.delete(response.id);
    clearTimeout(pending.timer);
    pending.log?.end();
    // What comes back is bound for events and logs: the agent's secret values never are.
    if (response.ok)
      pending.resolve(secretValues.length > 0 ? redactJson(response.result, secretValues) : response.result);
    else pending.reject(new SandboxError("crashed", redactSecrets(response.error, secretValues)));
    if (state.pending.size === 0) armIdle();
  }

  function armIdle(): void {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void stop(), idleMs);
    idleTimer.unref();
  }

  async function call<M extends SandboxMethod>(
    method: M,
    params: SandboxMethods[M]["params"],
    callOptions: CallOptions = {},
  ) {
    const { signal } = callOptions;
    if (signal?.aborted) throw new SandboxError("aborted", "the call was cancelled");
    clearTimeout(idleTimer);
    if (!proxy) {
      const starting = (proxy = startProxy());
      // A proxy that could not start is tried again by the next call.
      starting.catch(() => proxy === starting && (proxy = undefined));
    }
    const [{ socketPath }, secrets] = await Promise.all([proxy, options.readSecrets?.()]);
    if (secrets) secretValues = [...new Set([...secretValues, ...Object.values(secrets)])];
    running ??= spawnProcess(socketPath);
    const state = running;
    await state.ready;
    // Aborted while the process was starting: nothing was sent, so nothing needs killing.
    if (signal?.aborted) throw new SandboxError("aborted", "the call was cancelled");
    const timeoutMs = callOptions.timeoutMs ?? defaultTimeoutMs;
    const id = nextId++;
    return new Promise<SandboxMethods[M]["result"]>((resolve, reject) => {
      // A call that overruns may be stuck in a loop that blocks the process: only a kill ends it.
      const timer = setTimeout(
        () =>
          kill(
            state,
            new SandboxError(
              "timeout",
              `the call did not finish within ${timeoutMs / 1000} s; the sandbox was restarted`,
            ),
          ),
        timeoutMs,
      );
      const ended = new AbortController();
      const onAbort = () => {
        if (!state.pending.has(id)) return;
        state.pending.delete(id);
        clearTimeout(timer);
        ended.abort();
        reject(new SandboxError("aborted", "the call was cancelled"));
        kill(state, new SandboxError("crashed", "the sandbox was restarted to cancel another call"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const { onCallLog } = options;
      state.pending.set(id, {
        log:
          onCallLog &&
          createCallLog({ method, file: fileOf(params), context: callOptions.hostContext }, onCallLog, (text) =>
            redactSecrets(text, secretValues),
          ),
        hostContext: callOptions.hostContext,
        onPartial: callOptions.onPartial,
        ended,
        resolve: (value) => (
          signal?.removeEventListener("abort", onAbort), ended.abort(), resolve(value as SandboxMethods[M]["result"])
        ),
        reject: (error) => (signal?.removeEventListener("abort", onAbort), ended.abort(), reject(error)),
        timer,
      });
      const request: SandboxRequest = { id, method, params };
      // Secrets travel only when they changed since this process last got them.
      const sentEnv = secrets ? JSON.stringify(secrets) : undefined;
      if (sentEnv !== state.sentEnv) (request.env = secrets ?? {}), (state.sentEnv = sentEnv);
      state.child.send(request);
    });
  }

  async function stop(): Promise<void> {
    const state = running;
    const closing = proxy;
    proxy = undefined;
    if (closing) {
      await closing.then((open) => open.close()).catch(() => undefined);
      if (proxyDir) fs.rmSync(proxyDir, { recursive: true, force: true }), (proxyDir = undefined);
    }
    if (!state) return;
    running = undefined;
    if (state.child.exitCode !== null || state.child.signalCode !== null) return;
    const exited = new Promise((resolve) => state.child.once("exit", resolve));
    kill(state, new SandboxError("stopped", "the sandbox was stopped"));
    await exited;
  }

  return { call, stop, pid: () => running?.child.pid };
}

function fileOf(params: unknown): string | undefined {
  const file = (params as { file?: unknown } | null)?.file;
  return typeof file === "string" ? file : undefined;
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

/** A JSON value with every secret value inside its strings masked (values as JSON writes them). */
function redactJson(value: unknown, secrets: string[]): unknown {
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  const masked = redactSecrets(
    json,
    secrets.map((secret) => JSON.stringify(secret).slice(1, -1)),
  );
  if (masked === json) return value;
  try {
    return JSON.parse(masked);
  } catch {
    return "[output withheld: it contained a secret]";
  }
}
