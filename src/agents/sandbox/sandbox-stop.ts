// How a sandbox's process ends: killed when a call overruns or is cancelled or the memory
// watchdog trips (its exit then fails the calls in flight with the reason given), and stopped
// with its egress proxy by stop() or once it has been idle for idleMs.
import fs from "node:fs";
import { SandboxError } from "./sandbox-error";
import { signalQuietly } from "./sandbox-process";
import type { Running, SandboxManager } from "./sandbox-types";

export function kill(state: Running, failure: SandboxError): void {
  state.failure ??= failure;
  // The node process runs as another user, which clears the parent-death signal bwrap set: it
  // goes down with its namespace, whose init is killed here.
  if (state.initPid) signalQuietly(state.initPid);
  state.child.kill("SIGKILL");
}

export function armIdle(sb: SandboxManager): void {
  clearTimeout(sb.idleTimer);
  sb.idleTimer = setTimeout(() => void stopSandbox(sb), sb.idleMs);
  sb.idleTimer.unref();
}

export async function stopSandbox(sb: SandboxManager): Promise<void> {
  const state = sb.running;
  const closing = sb.proxy;
  sb.proxy = undefined;
  if (closing) {
    await closing.then((open) => open.close()).catch(() => undefined);
    if (sb.proxyDir) fs.rmSync(sb.proxyDir, { recursive: true, force: true }), (sb.proxyDir = undefined);
  }
  if (!state) return;
  sb.running = undefined;
  if (state.child.exitCode !== null || state.child.signalCode !== null) return;
  const exited = new Promise((resolve) => state.child.once("exit", resolve));
  kill(state, new SandboxError("stopped", "the sandbox was stopped"));
  await exited;
}
