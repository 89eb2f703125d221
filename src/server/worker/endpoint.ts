// The worker's HTTP/2 (h2c) server around the Restate endpoint handler. Restate keeps its HTTP/2
// sessions open, so closing also ends them (h2c-server.ts); otherwise close() would wait forever.
// Start-up makes the services' deps (worker-core.ts), then what runs beside them (background.ts),
// then listens; close() stops the server first, then the rest.
import * as restate from "@restatedev/restate-sdk";
import { healthService } from "@/server/durable/health-service";
import { remindersObject } from "@/server/durable/reminders-object";
import { schedulerObject } from "@/server/durable/scheduler-object";
import { sessionObject } from "@/server/durable/session-object";
import { toolsService } from "@/server/durable/tools-service";
import type { WorkerDeps } from "@/server/durable/worker-deps";
import { startBackground } from "./background";
import { type H2cServer, listenH2c } from "./h2c-server";
import { createWorkerCore } from "./worker-core";
import type { WorkerBackground, WorkerConfig, WorkerCore } from "./worker-parts";

export type { WorkerConfig } from "./worker-parts";

/** Every Restate service and object this worker serves. */
function createServices(deps: WorkerDeps) {
  return [healthService, sessionObject(deps), toolsService(deps), schedulerObject(deps), remindersObject(deps)];
}

export type WorkerServer = { url: string; close: () => Promise<void> };

export async function startWorkerServer({
  port,
  host,
  identityKeys,
  secretKey,
  deps: config,
}: {
  port: number;
  host: string;
  /** The keys Restate's requests must be signed with (src/server/durable/request-identity.ts); null accepts unsigned ones. */
  identityKeys: string[] | null;
  /** Decrypts agent secrets (env.ts secretKey); the data directory's key when absent. */
  secretKey?: Buffer;
  deps: WorkerConfig;
}): Promise<WorkerServer> {
  // The SDK reads an empty list as "verify nothing": only null may mean that.
  if (identityKeys?.length === 0)
    throw new Error("the worker needs at least one Restate identity key, or null to accept unsigned requests");
  const core = await createWorkerCore(config, secretKey);
  const background = await startBackground(config, core);
  const server = await listenH2c(
    restate.createEndpointHandler({ services: createServices(core.deps), identityKeys: identityKeys ?? undefined }),
    port,
    host,
  );
  return {
    url: `http://${host}:${server.port}`,
    close: () => closeWorker(server, core, background),
  };
}

/** The server first, then what start-up made (worker-core.ts, background.ts). */
async function closeWorker(server: H2cServer, core: WorkerCore, background: WorkerBackground): Promise<void> {
  await server.close();
  await Promise.all([
    background.hooks.close(),
    background.slackSockets?.close(),
    background.evals?.close(),
    core.cancellations.close(),
    core.secrets.close(),
    core.authorizations.close(),
    // On the deps themselves, where startBackground put it for the services.
    core.deps.eager?.close(),
  ]);
  await core.pool.closeAll();
  await core.sandboxes.stopAll();
  await core.logs.close();
}
