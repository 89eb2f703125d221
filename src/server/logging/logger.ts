// The platform processes' own log (docs/logs.md): pino, one JSON object per line on stdout, each
// with its process; child loggers add a request's, session's, turn's or agent's ids as fields.
import pino from "pino";
import { logLevelSetting } from "@/env";

export type Logger = pino.Logger;

let root: Logger | undefined;
let processName = "platform";

/** Names this process in every line (`web`, `worker`); call before the first log line. */
export function nameProcess(name: string): void {
  processName = name;
  root = undefined;
}

export function processLogger(): Logger {
  root ??= pino({
    level: logLevelSetting(),
    base: { process: processName, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
  return root;
}

/** What a caught error says in a log line: its message, and its stack at debug level. */
export function errorFields(error: unknown): { err: string; stack?: string } {
  if (!(error instanceof Error)) return { err: String(error) };
  return {
    err: error.message || error.name,
    ...(processLogger().isLevelEnabled("debug") ? { stack: error.stack } : {}),
  };
}

/** A warning for this process's log: the default `log` of the listeners and caches. */
export function logWarning(message: string): void {
  processLogger().warn(message);
}
