// The host side of a sandbox: one child process, started on first use, walled in by
// isolation.ts and driven over IPC. Every call has a deadline; a call that times out or a
// process that crashes (including running out of memory) fails the calls in flight with a
// SandboxError and the next call starts a fresh process. An idle sandbox stops itself.
// Its parts share one state object (sandbox-types.ts): the process's start (sandbox-start.ts),
// calls (sandbox-call.ts), what the process sends back (sandbox-messages.ts), stop and kill
// (sandbox-stop.ts).
import type { SandboxMethod, SandboxMethods } from "./protocol";
import { callSandbox } from "./sandbox-call";
import { stopSandbox } from "./sandbox-stop";
import type { CallOptions, Sandbox, SandboxManager, SandboxOptions } from "./sandbox-types";

export { SandboxError, type SandboxFailure } from "./sandbox-error";
export { defaultIsolation } from "./sandbox-start";
export type { CallOptions, Sandbox, SandboxOptions } from "./sandbox-types";

export function createSandbox(options: SandboxOptions): Sandbox {
  const { memoryMb = 256, defaultTimeoutMs = 60_000, idleMs = 5 * 60_000 } = options;
  const sb: SandboxManager = { options, memoryMb, defaultTimeoutMs, idleMs, nextId: 1, secretValues: [] };
  return {
    call: <M extends SandboxMethod>(method: M, params: SandboxMethods[M]["params"], callOptions?: CallOptions) =>
      callSandbox(sb, method, params, callOptions),
    stop: () => stopSandbox(sb),
    pid: () => sb.running?.child.pid,
  };
}
