// `agentfold eval --dir <folder>`: the folder's evals on a throwaway stack on this machine
// (src/cli/local/local-agent.ts), which is gone when the command ends.
import type { PrismaClient } from "@prisma/client";
import type { Env } from "@/env";
import { type LocalDeployFailure, startLocalAgent } from "@/cli/local/local-agent";
import { evalListing } from "@/server/evals/eval-cases";
import { readEvalRun } from "@/server/evals/read-eval-run";
import type { EvalResult } from "@/server/evals/schema";
import { startEvalRun } from "@/server/evals/start-eval-run";
import type { EvalBackend, RunOutcome } from "./eval-backend";

/** How often the run is read back while it goes on: one indexed query per tick, on this machine. */
const pollMs = 250;

/** Starts the stack and deploys the folder; everything started is stopped by the backend's
 * close(), or here when a step fails. */
export async function localBackend(options: {
  dir: string;
  slug?: string;
  config: Env;
  say: (line: string) => void;
  /** Given at once: what stops whatever has started so far (Ctrl-C during start-up). */
  onClose: (close: () => Promise<void>) => void;
}): Promise<EvalBackend | LocalDeployFailure> {
  const local = await startLocalAgent({ ...options, teamName: "Local evals" });
  if ("diagnostics" in local) return local;
  for (const line of local.warnings) options.say(line);
  const { db, agent, manifest } = local;
  return {
    where: "a local stack",
    list: async () => evalListing(manifest),
    start: (selection) =>
      startEvalRun({
        db,
        agentId: agent.id,
        principal: { kind: "local", id: "local" },
        startedBy: "the CLI",
        selection,
      }),
    follow: (runId, onResult, signal) => poll(db, runId, onResult, signal),
    close: local.close,
  };
}

/** Reads the run until it has finished, passing on each result whose state changed. */
async function poll(
  db: PrismaClient,
  runId: string,
  onResult: (result: EvalResult) => void,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const seen = new Map<string, string>();
  for (;;) {
    signal.throwIfAborted();
    const outcome = await readEvalRun(db, runId);
    for (const result of outcome.results) {
      const key = `${result.caseId}#${result.iteration}`;
      const state = `${result.status}|${result.startedAt}|${result.finishedAt}`;
      if (seen.get(key) === state) continue;
      seen.set(key, state);
      onResult(result);
    }
    if (outcome.run.status !== "running") return outcome;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
