// An agent folder deployed on a throwaway stack on this machine: its own Postgres and Restate in
// a temporary directory and a worker in this process, gone when close() runs. `agentfold eval`,
// `run` and `call --dir` work on one; the folder is the one agent of a fresh team.
import "@/server/durable/polyfill";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import type { Env } from "@/env";
import { formatDiagnostic } from "@/agents/loader/diagnostics";
import { slugProblem } from "@/agents/loader/names";
import { tarGzOf } from "@/cli/commands/admin";
import { shownPath } from "@/cli/commands/eval-report";
import { applyMigrations } from "@/cli/start/migrate";
import { getFreePort } from "@/cli/start/ports";
import { startThrowawayStack } from "@/cli/start/throwaway";
import { createAgentVersion } from "@/server/agents/create-agent-version";
import { createDb, poolOf } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { modelRouting } from "@/server/models";
import { createTeam } from "@/server/teams/create-team";
import { startWorkerServer } from "@/server/worker/endpoint";
import { workerConfigFromEnv } from "@/server/worker/worker-config";

/** A folder's name as an agent slug (`My Agent` → `my-agent`); undefined when it makes none the
 * platform takes (empty, or a name it keeps for itself: `usage`, `api` …). */
export function folderSlugOf(dir: string): string | undefined {
  const slug = path
    .basename(path.resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return slug && !slugProblem(slug) ? slug : undefined;
}

/** A folder's slug on a local stack, where it names nothing else: `agent` when the name makes none. */
export function slugOf(dir: string): string {
  return folderSlugOf(dir) ?? "agent";
}

export type LocalAgent = {
  db: PrismaClient;
  runtime: DurableRuntime;
  agent: { id: string; slug: string; teamId: string; activeVersionId: string | null };
  manifest: AgentManifest;
  /** Warnings of the deploy, formatted. */
  warnings: string[];
  close: () => Promise<void>;
};

export type LocalDeployFailure = { diagnostics: string[] };

/** Starts the stack and deploys the folder; everything started is stopped by close(), or here
 * when a step fails. */
export async function startLocalAgent(options: {
  dir: string;
  slug?: string;
  config: Env;
  say: (line: string) => void;
  /** Given at once: what stops whatever has started so far (Ctrl-C during start-up). */
  onClose: (close: () => Promise<void>) => void;
  teamName: string;
}): Promise<LocalAgent | LocalDeployFailure> {
  const { config, say } = options;
  say("starting a local stack (Postgres, Restate, a worker)…");
  const stoppers: (() => Promise<void>)[] = [];
  // The worker before the database it listens on, the database before Postgres.
  const close = async () => {
    for (const stop of stoppers.splice(0).reverse()) await stop().catch(() => undefined);
  };
  options.onClose(close);
  try {
    const stack = await startThrowawayStack({ withRestate: true });
    stoppers.push(stack.stop);
    const restate = stack.restate!;
    await applyMigrations(stack.databaseUrl);
    const db = createDb(stack.databaseUrl);
    // The pool was handed to Prisma, which leaves it open: its idle connections would see Postgres stop.
    stoppers.push(async () => (await db.$disconnect(), await poolOf(db).end()));
    const runtime = createRestateRuntime({ ingressUrl: restate.ingressUrl, adminUrl: restate.adminUrl });
    const worker = await startWorkerServer({
      port: await getFreePort(),
      host: "127.0.0.1",
      identityKeys: [restate.identityKey],
      deps: workerConfigFromEnv(config, { db, dataDir: stack.dir, runtime }),
    });
    stoppers.push(worker.close);
    await runtime.registerWorker(worker.url);

    const slug = options.slug ?? slugOf(options.dir);
    say(`deploying ${shownPath(options.dir)} as ${slug}…`);
    const team = await createTeam({ db, name: options.teamName, slug: "local" });
    const version = await createAgentVersion({
      db,
      dataDir: stack.dir,
      teamId: team.id,
      slug,
      archive: await tarGzOf(options.dir),
      models: modelRouting(config),
    });
    if (version.status !== "ready" || !version.manifest) {
      await close();
      return { diagnostics: version.diagnostics.map(formatDiagnostic) };
    }
    return {
      db,
      runtime,
      agent: { id: version.agentId, slug, teamId: team.id, activeVersionId: version.id },
      manifest: version.manifest,
      warnings: version.diagnostics.map(formatDiagnostic),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
