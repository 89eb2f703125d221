// The seam of a sandbox (sandbox.ts): its options and API, and the state its parts share
// (sandbox-start.ts, sandbox-call.ts, sandbox-messages.ts, sandbox-stop.ts). That state is one
// object per sandbox, passed to each part and read when the part runs, never copied.
import type { ChildProcess } from "node:child_process";
import type { CallLog, OnCallLog } from "./call-logs";
import type { EgressPolicy } from "./egress-policy";
import type { EgressProxy, ResolveTarget } from "./egress-proxy";
import type { OnHostCall } from "./host-call-answer";
import type { SandboxIsolation } from "./isolation";
import type { SandboxMethod, SandboxMethods } from "./protocol";
import type { SandboxError } from "./sandbox-error";

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

export type Pending = {
  resolve: (value: unknown) => void;
  reject: (error: SandboxError) => void;
  timer: NodeJS.Timeout;
  hostContext?: unknown;
  /** Aborted when the call ends: host calls still serving it (a long wait) stop. */
  ended: AbortController;
  onPartial?: (result: unknown) => void;
  log?: CallLog;
};
export type Running = {
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

/** What one sandbox keeps across its processes and calls (createSandbox's state). */
export type SandboxManager = {
  options: SandboxOptions;
  memoryMb: number;
  defaultTimeoutMs: number;
  idleMs: number;
  running?: Running;
  nextId: number;
  idleTimer?: NodeJS.Timeout;
  proxy?: Promise<EgressProxy>;
  /** Every secret value ever handed to agent code here, masked in everything that comes back:
   * a value rotated out may still reach a log line written before the rotation but read after
   * it (stdout is read apart from responses), and agent code may have kept it. */
  secretValues: string[];
  proxyDir?: string;
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
