// Entry point of the `worker` process: the Restate service endpoint. Uploaded agent code never
// runs here; it runs only in sandbox processes this worker spawns.
import "@/server/durable/polyfill";
import { env, secretKey } from "@/env";
import { db } from "@/server/db";
import { unsignedWarning, workerIdentityKeys } from "@/server/durable/request-identity";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { nameProcess, processLogger } from "@/server/logging/logger";
import { telemetryConfig } from "@/server/telemetry/config";
import { startTelemetry } from "@/server/telemetry/telemetry";
import { startWorkerServer } from "./endpoint";
import { workerConfigFromEnv } from "./worker-config";

const config = env();
nameProcess("worker");
const log = processLogger();
const identityKeys = workerIdentityKeys(config);
if (!identityKeys) log.warn(unsignedWarning);
// Only with an OTLP endpoint configured: otherwise no SDK is loaded (docs/telemetry.md).
const telemetry = await startTelemetry(telemetryConfig(config, "worker"));
const server = await startWorkerServer({
  port: config.WORKER_PORT,
  host: config.AGENTFOLD_HOST,
  identityKeys,
  secretKey: secretKey(config),
  deps: {
    ...workerConfigFromEnv(config, {
      db: db(),
      dataDir: config.dataDir,
      runtime: createRestateRuntime({ ingressUrl: config.restateIngressUrl, adminUrl: config.restateAdminUrl }),
    }),
    logRetention: {
      maxLinesPerAgent: config.AGENTFOLD_LOG_MAX_LINES,
      retentionDays: config.AGENTFOLD_LOG_RETENTION_DAYS,
    },
    telemetry,
  },
});
log.info({ url: server.url }, `worker listening on ${server.url}`);

let isStopping = false;
async function shutdown(): Promise<void> {
  if (isStopping) return;
  isStopping = true;
  await server.close();
  // What is still batched goes out before the process does.
  await telemetry?.shutdown();
  process.exit(0);
}
process.once("SIGTERM", () => void shutdown());
process.once("SIGINT", () => void shutdown());
