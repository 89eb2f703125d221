// Agent code's console.* inside a platform call goes to the platform as that call's log lines
// (docs/logs.md), not to the process's stdout, so each line is stored with the call's agent,
// session and module. Output outside any call (a module's top level, a timer left behind after
// its call ended) still goes to stdout and stderr, where the platform's process log has it.
// This file runs ONLY in the sandbox.
import { AsyncLocalStorage } from "node:async_hooks";
import { formatWithOptions } from "node:util";
import type { SandboxLog } from "./protocol";

const calls = new AsyncLocalStorage<number>();

/** Runs `work` as part of the platform's call `requestId`: what it prints is that call's. */
export function inCall<T>(requestId: number, work: () => T): T {
  return calls.run(requestId, work);
}

/** The platform call the running code is part of, if any (decide-api.ts makes host calls in it). */
export function currentCall(): number | undefined {
  return calls.getStore();
}

const levels = { debug: "debug", trace: "debug", log: "info", info: "info", warn: "warn", error: "error" } as const;

export function captureConsole(): void {
  for (const [method, level] of Object.entries(levels) as [keyof typeof levels, SandboxLog["level"]][]) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      const requestId = calls.getStore();
      if (requestId === undefined || !process.connected) return original(...args);
      const text = formatWithOptions({ colors: false, depth: 4, breakLength: Number.POSITIVE_INFINITY }, ...args);
      process.send?.({ log: requestId, level, text } satisfies SandboxLog);
    };
  }
}

/** An error agent code threw, as the call's error line: its stack when it has one. */
export function logCallError(error: unknown, what: string): void {
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
  console.error(`${what} threw: ${detail}`);
}
