// The platform processes' own log (docs/logs.md): pino, one JSON object per line on stdout, each
// with its process; child loggers add a request's, session's, turn's or agent's ids as fields.
import pino from "pino";
import { logLevelSetting } from "@/env";

export type Logger = pino.Logger;

let root: Logger | undefined;
// On globalThis, not in this module: the web's route code runs in Next's bundle, which has its
// own copy of this module, and its lines must name the process too.
const processNameKey = Symbol.for("agentfold.processName");
const named = globalThis as { [processNameKey]?: string };

/** Names this process in every line (`web`, `worker`); call before the first log line. */
export function nameProcess(name: string): void {
  named[processNameKey] = name;
  root = undefined;
}

let redirect: { destination: pino.DestinationStream; level: pino.LevelWithSilent } | undefined;

/** For a process whose stdout is its answer (`agentfold eval --json` runs a worker in-process):
 * the platform's lines go to `destination` instead, from `level` up; call before the first line. */
export function redirectProcessLog(destination: pino.DestinationStream, level: pino.LevelWithSilent): void {
  redirect = { destination, level };
  root = undefined;
}

export function processLogger(): Logger {
  if (root) return root;
  const options: pino.LoggerOptions = {
    level: redirect?.level ?? logLevelSetting(),
    base: { process: named[processNameKey] ?? "platform", pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  root = redirect ? pino(options, redirect.destination) : pino(options);
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
