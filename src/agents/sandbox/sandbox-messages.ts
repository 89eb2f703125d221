// What a sandbox's process sends back over IPC: results and partial results of the calls in
// flight, host calls made on behalf of one, and the lines agent code logged. It is all bound for
// events and logs, so the agent's secret values are masked on the way.
import { answerHostCall } from "./host-call-answer";
import type { HostCall, SandboxLog, SandboxPartial, SandboxResponse } from "./protocol";
import { redactSecrets } from "./redact-secrets";
import { SandboxError } from "./sandbox-error";
import { armIdle } from "./sandbox-stop";
import type { Running, SandboxManager } from "./sandbox-types";

export type ChildMessage = SandboxResponse | HostCall | SandboxPartial | SandboxLog;

export function onChildMessage(sb: SandboxManager, state: Running, message: ChildMessage): void {
  if ("log" in message) callLog(sb, state, message);
  else if ("hostCall" in message) void serveHostCall(sb, state, message);
  else if ("partial" in message) state.pending.get(message.partial)?.onPartial?.(partialResult(sb, message.result));
  else settle(sb, state, message);
}

async function serveHostCall(sb: SandboxManager, state: Running, call: HostCall): Promise<void> {
  const reply = await answerHostCall(call, state.pending.get(call.requestId), sb.options.onHostCall);
  if (state.child.connected) state.child.send(reply);
}

/** A line of a call still running goes with its call; any other to the process's log. */
function callLog(sb: SandboxManager, state: Running, message: SandboxLog): void {
  const pending = state.pending.get(message.log);
  if (pending?.log) pending.log.add(message);
  else
    sb.options.onLog?.({
      stream: message.level === "error" || message.level === "warn" ? "stderr" : "stdout",
      text: redactSecrets(message.text, sb.secretValues),
    });
}

/** Partial answers are bound for the same places as whole ones: no secret values. */
function partialResult(sb: SandboxManager, result: unknown): unknown {
  return sb.secretValues.length > 0 ? redactJson(result, sb.secretValues) : result;
}

function settle(sb: SandboxManager, state: Running, response: SandboxResponse): void {
  const pending = state.pending.get(response.id);
  if (!pending) return;
  state.pending.delete(response.id);
  clearTimeout(pending.timer);
  pending.log?.end();
  // What comes back is bound for events and logs: the agent's secret values never are.
  if (response.ok)
    pending.resolve(sb.secretValues.length > 0 ? redactJson(response.result, sb.secretValues) : response.result);
  else pending.reject(new SandboxError("crashed", redactSecrets(response.error, sb.secretValues)));
  if (state.pending.size === 0) armIdle(sb);
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
