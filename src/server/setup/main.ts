// Entry point of the one-shot `setup` process of a scaled-out deployment (docs/deploy.md): the
// steps `agentfold start` takes around the processes it starts, for web and worker processes that
// something else (Docker Compose, Kubernetes) starts.
//   migrate   applies pending migrations: once per release, before its web and worker processes start
//   register  registers WORKER_URL (the workers' one address) with Restate, then starts schedules
import { env } from "@/env";
import { applyMigrations } from "@/cli/start/migrate";
import { waitFor } from "@/cli/start/wait";
import { createDb } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { nameProcess, processLogger } from "@/server/logging/logger";
import { startSchedulers } from "@/server/schedules/start-schedulers";
import { isWorkerHealthy } from "@/server/worker/health";

const usage = "usage: setup migrate | setup register";
// Workers and Restate nodes may still be starting when this runs beside them.
const waitMs = 300_000;

async function migrate(): Promise<string> {
  const { DATABASE_URL: databaseUrl } = env();
  if (!databaseUrl) throw new Error("DATABASE_URL is not set");
  return `migrations: ${await applyMigrations(databaseUrl)}`;
}

async function register(): Promise<string> {
  const config = env();
  if (!config.DATABASE_URL) throw new Error("DATABASE_URL is not set");
  if (!config.isExternalRestate) throw new Error("RESTATE_INGRESS_URL and RESTATE_ADMIN_URL are not set");
  const runtime = createRestateRuntime({ ingressUrl: config.restateIngressUrl, adminUrl: config.restateAdminUrl });
  await waitFor("Restate's admin API", () => runtime.isHealthy(), { timeoutMs: waitMs, intervalMs: 1_000 });
  // Restate reads the service definitions from the endpoint while registering it.
  await waitFor(`a worker at ${config.workerUrl}`, () => isWorkerHealthy(config.workerUrl), {
    timeoutMs: waitMs,
    intervalMs: 1_000,
  });
  await runtime.registerWorker(config.workerUrl);
  const db = createDb(config.DATABASE_URL);
  try {
    // Schedules fire from Restate timers; each agent's chain is started again, as at every `agentfold start`.
    const agents = await startSchedulers({ db, runtime });
    return `registered ${config.workerUrl} with Restate; schedules started for ${agents} agents`;
  } finally {
    await db.$disconnect();
  }
}

nameProcess("setup");
const log = processLogger();
const steps: Record<string, () => Promise<string>> = { migrate, register };
const step = steps[process.argv[2] ?? ""];
if (!step) {
  log.error(usage);
  process.exit(2);
}
try {
  log.info(await step());
  process.exit(0);
} catch (error) {
  // The orchestrator retries a failed setup (a Job's backoff, Compose's restart policy).
  log.error((error as Error).message);
  process.exit(1);
}
