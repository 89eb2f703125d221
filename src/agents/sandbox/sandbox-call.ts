// One call into a sandbox: its egress proxy and process started if none runs, the agent's secrets
// read (and sent only when they changed), and a pending entry that the call's result, its
// deadline, the caller's abort or the process's exit settles, whichever comes first.
import { createCallLog } from "./call-logs";
import type { EgressProxy } from "./egress-proxy";
import type { SandboxMethod, SandboxMethods, SandboxRequest } from "./protocol";
import { redactSecrets } from "./redact-secrets";
import { SandboxError } from "./sandbox-error";
import { spawnProcess, startProxy } from "./sandbox-start";
import { kill } from "./sandbox-stop";
import type { CallOptions, Running, SandboxManager } from "./sandbox-types";

type OutgoingCall<M extends SandboxMethod> = {
  id: number;
  method: M;
  params: SandboxMethods[M]["params"];
  timeoutMs: number;
  callOptions: CallOptions;
};

export async function callSandbox<M extends SandboxMethod>(
  sb: SandboxManager,
  method: M,
  params: SandboxMethods[M]["params"],
  callOptions: CallOptions = {},
) {
  const { signal } = callOptions;
  if (signal?.aborted) throw new SandboxError("aborted", "the call was cancelled");
  clearTimeout(sb.idleTimer);
  const [{ socketPath }, secrets] = await Promise.all([proxyOf(sb), sb.options.readSecrets?.()]);
  if (secrets) sb.secretValues = [...new Set([...sb.secretValues, ...Object.values(secrets)])];
  sb.running ??= spawnProcess(sb, socketPath);
  const state = sb.running;
  await state.ready;
  // Aborted while the process was starting: nothing was sent, so nothing needs killing.
  if (signal?.aborted) throw new SandboxError("aborted", "the call was cancelled");
  const timeoutMs = callOptions.timeoutMs ?? sb.defaultTimeoutMs;
  const id = sb.nextId++;
  return new Promise<SandboxMethods[M]["result"]>((resolve, reject) => {
    awaitAnswer(sb, state, { id, method, params, timeoutMs, callOptions }, resolve, reject);
    sendRequest(state, { id, method, params }, secrets);
  });
}

/** The egress proxy, started by the first call that needs it. */
function proxyOf(sb: SandboxManager): Promise<EgressProxy> {
  if (!sb.proxy) {
    const starting = (sb.proxy = startProxy(sb));
    // A proxy that could not start is tried again by the next call.
    starting.catch(() => sb.proxy === starting && (sb.proxy = undefined));
  }
  return sb.proxy;
}

function awaitAnswer<M extends SandboxMethod>(
  sb: SandboxManager,
  state: Running,
  call: OutgoingCall<M>,
  resolve: (value: SandboxMethods[M]["result"]) => void,
  reject: (error: SandboxError) => void,
): void {
  const { id, method, params, timeoutMs, callOptions } = call;
  const { signal } = callOptions;
  // A call that overruns may be stuck in a loop that blocks the process: only a kill ends it.
  const timer = setTimeout(
    () =>
      kill(
        state,
        new SandboxError("timeout", `the call did not finish within ${timeoutMs / 1000} s; the sandbox was restarted`),
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
  const { onCallLog } = sb.options;
  state.pending.set(id, {
    log:
      onCallLog &&
      createCallLog({ method, file: fileOf(params), context: callOptions.hostContext }, onCallLog, (text) =>
        redactSecrets(text, sb.secretValues),
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
}

function sendRequest(state: Running, request: SandboxRequest, secrets: Record<string, string> | undefined): void {
  // Secrets travel only when they changed since this process last got them.
  const sentEnv = secrets ? JSON.stringify(secrets) : undefined;
  if (sentEnv !== state.sentEnv) (request.env = secrets ?? {}), (state.sentEnv = sentEnv);
  state.child.send(request);
}

function fileOf(params: unknown): string | undefined {
  const file = (params as { file?: unknown } | null)?.file;
  return typeof file === "string" ? file : undefined;
}
