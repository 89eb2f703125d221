// `agentfold eval --dir <folder>`: the folder's evals on a throwaway stack on this machine (its own
// Postgres and Restate in a temporary directory, a worker in this process), which is gone when the
// command ends. The folder is deployed as the one agent of a fresh team.
import "@/server/durable/polyfill";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { Env } from "@/env";
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import { slugProblem } from "@/agents/loader/names";
import { applyMigrations } from "@/cli/start/migrate";
import { getFreePort } from "@/cli/start/ports";
import { startThrowawayStack, type ThrowawayStack } from "@/cli/start/throwaway";
import { createAgentVersion } from "@/server/agents/create-agent-version";
import { createDb, poolOf } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { evalListing } from "@/server/evals/eval-cases";
import { readEvalRun } from "@/server/evals/read-eval-run";
import type { EvalResult } from "@/server/evals/schema";
import { startEvalRun } from "@/server/evals/start-eval-run";
import { createTeam } from "@/server/teams/create-team";
import { startWorkerServer, type WorkerServer } from "@/server/worker/endpoint";
import { workerConfigFromEnv } from "@/server/worker/worker-config";
import { tarGzOf } from "./admin";
import type { EvalBackend, RunOutcome } from "./eval-backend";
import { shownPath } from "./eval-report";

/** How often the run is read back while it goes on: one indexed query per tick, on this machine. */
const pollMs = 250;

/** A folder's name as an agent slug (`My Agent` → `my-agent`); a name the platform keeps for
 * itself (`usage`, `api` …) is `agent`, as on a local stack the slug names nothing else. */
export function slugOf(dir: string): string {
  const slug = path
    .basename(path.resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return slug && !slugProblem(slug) ? slug : "agent";
}

export type LocalDeployFailure = { diagnostics: string[] };

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
  const { config, say } = options;
  say("starting a local stack (Postgres, Restate, a worker)…");
  const stoppers: (() => Promise<void>)[] = [];
  // The worker before the database it listens on, the database before Postgres.
  const close = async () => {
    for (const stop of stoppers.splice(0).reverse()) await stop().catch(() => undefined);
  };
  options.onClose(close);
  try {
    const stack: ThrowawayStack = await startThrowawayStack({ withRestate: true });
    stoppers.push(stack.stop);
    const restate = stack.restate!;
    await applyMigrations(stack.databaseUrl);
    const db = createDb(stack.databaseUrl);
    // The pool was handed to Prisma, which leaves it open: its idle connections would see Postgres stop.
    stoppers.push(async () => (await db.$disconnect(), await poolOf(db).end()));
    const runtime = createRestateRuntime({ ingressUrl: restate.ingressUrl, adminUrl: restate.adminUrl });
    const worker: WorkerServer = await startWorkerServer({
      port: await getFreePort(),
      host: "127.0.0.1",
      identityKeys: [restate.identityKey],
      deps: workerConfigFromEnv(config, { db, dataDir: stack.dir, runtime }),
    });
    stoppers.push(worker.close);
    await runtime.registerWorker(worker.url);

    const slug = options.slug ?? slugOf(options.dir);
    say(`deploying ${shownPath(options.dir)} as ${slug}…`);
    const team = await createTeam({ db, name: "Local evals", slug: "local" });
    const version = await createAgentVersion({
      db,
      dataDir: stack.dir,
      teamId: team.id,
      slug,
      archive: await tarGzOf(options.dir),
    });
    if (version.status !== "ready" || !version.manifest) {
      await close();
      return { diagnostics: version.diagnostics.map(formatDiagnostic) };
    }
    for (const diagnostic of version.diagnostics) say(formatDiagnostic(diagnostic));
    const manifest = version.manifest;
    return {
      where: "a local stack",
      list: async () => evalListing(manifest),
      start: (selection) =>
        startEvalRun({
          db,
          agentId: version.agentId,
          principal: { kind: "local", id: "local" },
          startedBy: "the CLI",
          selection,
        }),
      follow: (runId, onResult, signal) => poll(db, runId, onResult, signal),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
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
