// For commands whose stdout is their answer (JSON for scripts) while a stack runs in-process.
import { Console } from "node:console";
import pino from "pino";
import { type Env, quietRestateSdk } from "@/env";
import { redirectProcessLog } from "@/server/logging/logger";

/** Everything the in-process stack would print goes to stderr: stdout carries only the answer.
 * Its log starts at warnings: at info, the platform's lines would bury the progress. */
export function keepStdoutForTheAnswer(config: Env): void {
  quietRestateSdk();
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  const level = config.AGENTFOLD_LOG_LEVEL === "info" ? "warn" : config.AGENTFOLD_LOG_LEVEL;
  redirectProcessLog(pino.destination(2), level);
}
