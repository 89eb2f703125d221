// `agentfold start`: brings up what is not configured externally, in dependency order, restarts
// any part that dies, and stops it all in reverse order (web, worker, Restate, Postgres) on Ctrl-C,
// SIGTERM, or a part that keeps dying (docs/configuration.md, "Supervision").
import { authSecret, inheritedEnvironment, type Env } from "@/env";
import { createDb } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { unsignedWarning, workerIdentityKeys } from "@/server/durable/request-identity";
import type { DurableRuntime } from "@/server/durable/runtime";
import { startSchedulers } from "@/server/schedules/start-schedulers";
import { stopAllChildren, type Log } from "./child";
import { clusterPortChecks, type Started, startClusterRestate, startClusterWebs, startClusterWorkers } from "./cluster";
import { applyMigrations } from "./migrate";
import { assertPortFree } from "./ports";
import { startEmbeddedPostgres } from "./postgres";
import { startEmbeddedRestate } from "./restate";
import { buildWebIfNeeded, startWeb } from "./web";
import type { Supervision } from "./supervised";
import { startWorker } from "./worker";

type Stoppable = { name: string; stop: () => Promise<void> };

async function assertPortsFree(config: Env): Promise<void> {
  const checks = [
    { port: config.PORT, host: config.AGENTFOLD_HOST, component: "web", variable: "PORT" },
    { port: config.WORKER_PORT, host: config.AGENTFOLD_HOST, component: "worker", variable: "WORKER_PORT" },
  ];
  if (!config.isExternalDatabase) {
    checks.push({
      port: config.POSTGRES_PORT,
      host: "127.0.0.1",
      component: "embedded Postgres",
      variable: "POSTGRES_PORT",
    });
  }
  if (!config.isExternalRestate) {
    checks.push(
      {
        port: config.RESTATE_INGRESS_PORT,
        host: "127.0.0.1",
        component: "Restate ingress",
        variable: "RESTATE_INGRESS_PORT",
      },
      {
        port: config.RESTATE_ADMIN_PORT,
        host: "127.0.0.1",
        component: "Restate admin",
        variable: "RESTATE_ADMIN_PORT",
      },
    );
    // A cluster's nodes talk on ports of their own (cluster-ports.ts).
    if (!config.AGENTFOLD_CLUSTER)
      checks.push({
        port: config.RESTATE_NODE_PORT,
        host: "127.0.0.1",
        component: "Restate node",
        variable: "RESTATE_NODE_PORT",
      });
  }
  if (config.AGENTFOLD_CLUSTER) {
    const own = clusterPortChecks(config);
    checks.push(...(config.isExternalRestate ? own.filter((c) => !c.component.startsWith("restate")) : own));
  }
  for (const check of checks) await assertPortFree(check);
}

export type Supervisor = { shutdown: () => Promise<void> };

export async function startSupervisor(
  config: Env,
  log: Log,
  {
    exit = (code: number) => process.exit(code),
    environment = inheritedEnvironment(),
  }: {
    exit?: (code: number) => void;
    /** What the children start from: the variables `config` was parsed from (`agentfold dev`
     * parses its own), else this process's. */
    environment?: NodeJS.ProcessEnv;
  } = {},
): Promise<Supervisor> {
  const started: Stoppable[] = [];
  let stopping: Promise<void> | undefined;
  // Once: a signal arriving while a crash loop stops the stack waits for that same shutdown.
  const shutdown = () =>
    (stopping ??= (async () => {
      for (const component of started.reverse()) {
        log(`stopping ${component.name}`);
        await component.stop();
      }
      await stopAllChildren();
    })());
  const supervision = {
    policy: { limit: config.AGENTFOLD_RESTART_LIMIT, windowMs: config.AGENTFOLD_RESTART_WINDOW_SECONDS * 1000 },
    // The part that gave up said why; the rest of the stack is useless without it.
    onGiveUp: () => void shutdown().then(() => exit(1)),
  };
  const lines: string[] = [];
  try {
    // The keys the worker verifies Restate's requests with; an external Restate without any is
    // refused here, before anything starts (request-identity.ts).
    let identityKeys = config.isExternalRestate ? workerIdentityKeys(config) : null;
    await assertPortsFree(config);

    let databaseUrl = config.DATABASE_URL;
    if (databaseUrl) {
      lines.push(`postgres  external  ${redact(databaseUrl)}`);
    } else {
      const postgres = await startEmbeddedPostgres({
        dataDir: config.dataDir,
        port: config.POSTGRES_PORT,
        log,
        supervision,
      });
      started.push({ name: "postgres", stop: postgres.stop });
      databaseUrl = postgres.url;
      const pid = postgres.supervised.current().pid;
      lines.push(
        `postgres  embedded  127.0.0.1:${config.POSTGRES_PORT}  (pid ${pid}, data in ${config.dataDir}/postgres)`,
      );
    }
    log(`migrations: ${await applyMigrations(databaseUrl)}`);

    if (config.isExternalRestate) {
      lines.push(`restate   external  ingress ${config.restateIngressUrl}  admin ${config.restateAdminUrl}`);
      if (!identityKeys) log(unsignedWarning);
    } else if (config.AGENTFOLD_CLUSTER) {
      const cluster = await startClusterRestate({ config, log, supervision });
      started.push({ name: "restate", stop: cluster.stop });
      identityKeys = [cluster.identityKey];
      lines.push(...cluster.lines);
    } else {
      const restate = await startEmbeddedRestate({
        dataDir: config.dataDir,
        ports: {
          ingress: config.RESTATE_INGRESS_PORT,
          admin: config.RESTATE_ADMIN_PORT,
          node: config.RESTATE_NODE_PORT,
        },
        log,
        supervision,
      });
      started.push({ name: "restate", stop: restate.stop });
      identityKeys = [restate.identityKey];
      const pid = restate.supervised.current().pid;
      lines.push(`restate   embedded  ingress ${restate.ingressUrl}  admin ${restate.adminUrl}  (pid ${pid})`);
    }

    const childEnv: NodeJS.ProcessEnv = {
      ...environment,
      AGENTFOLD_DATA_DIR: config.dataDir,
      DATABASE_URL: databaseUrl,
      RESTATE_INGRESS_URL: config.restateIngressUrl,
      RESTATE_ADMIN_URL: config.restateAdminUrl,
      // Empty (unset) only for the opt-out, which the worker reads from the inherited variables.
      RESTATE_IDENTITY_KEYS: identityKeys?.join(",") ?? "",
      WORKER_URL: config.workerUrl,
      AUTH_SECRET: authSecret(config),
      NEXTAUTH_URL: config.webUrl,
    };
    const runtime = createRestateRuntime({ ingressUrl: config.restateIngressUrl, adminUrl: config.restateAdminUrl });
    // A build first, alone: it takes both cores for minutes, and the worker's start-up check would
    // count them against it. Then the workers and the web, which need only Postgres and Restate,
    // not each other, start side by side. Stopped in reverse: web, then workers.
    await buildWebIfNeeded(log, childEnv);
    const [workers, web] = await allStarted(
      [
        (async () => {
          const workers = config.AGENTFOLD_CLUSTER
            ? await startClusterWorkers({ config, env: childEnv, runtime, log, supervision })
            : await startSingleWorker(config, childEnv, runtime, log, supervision);
          await startAgentSchedulers(databaseUrl, runtime, log);
          return workers;
        })(),
        config.AGENTFOLD_CLUSTER
          ? startClusterWebs({ config, env: childEnv, log, supervision })
          : startSingleWeb(config, childEnv, log, supervision),
      ],
      started,
    );
    started.push({ name: config.AGENTFOLD_CLUSTER ? "workers" : "worker", stop: workers.stop });
    started.push({ name: config.AGENTFOLD_CLUSTER ? "webs" : "web", stop: web.stop });
    lines.push(...workers.lines, ...web.lines);
  } catch (error) {
    await shutdown();
    throw error;
  }
  for (const line of lines) log(line);
  log(`Agentfold is ready: open ${config.webUrl}`);
  return { shutdown };
}

/** Waits for every part. The first to fail is thrown at once; the shutdown that follows stops
 * what started (those that finished are added to `started`; one still starting has its children
 * stopped by stopAllChildren). */
async function allStarted<T extends Started[]>(parts: { [K in keyof T]: Promise<T[K]> }, started: Stoppable[]) {
  const finished: Started[] = [];
  for (const part of parts as Promise<Started>[]) part.then((done) => finished.push(done)).catch(() => undefined);
  try {
    return (await Promise.all(parts)) as T;
  } catch (error) {
    for (const part of finished) started.push({ name: "part", stop: part.stop });
    throw error;
  }
}

async function startSingleWorker(
  config: Env,
  env: NodeJS.ProcessEnv,
  runtime: DurableRuntime,
  log: Log,
  supervision: Supervision,
): Promise<Started> {
  const worker = await startWorker({ workerUrl: config.workerUrl, env, runtime, log, supervision });
  return {
    stop: worker.stop,
    lines: [`worker    ${config.workerUrl}  (pid ${worker.current().pid}, registered with Restate)`],
  };
}

async function startSingleWeb(config: Env, env: NodeJS.ProcessEnv, log: Log, supervision: Supervision) {
  const web = await startWeb({ host: config.AGENTFOLD_HOST, port: config.PORT, env, log, supervision });
  return { stop: web.stop, lines: [`web       ${config.webUrl}  (pid ${web.current().pid})`] };
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "****";
  return parsed.toString();
}

/** Schedules fire from Restate timers; start each agent's chain now that the worker is registered. */
async function startAgentSchedulers(databaseUrl: string, runtime: DurableRuntime, log: Log): Promise<void> {
  const db = createDb(databaseUrl);
  try {
    await startSchedulers({ db, runtime });
  } catch (error) {
    log(`schedules could not be started: ${(error as Error).message}`);
  } finally {
    await db.$disconnect();
  }
}
