// A real turn engine for integration tests: its own Restate, a worker (in this process, or as a
// child process that a crash test can kill -9), agent folders uploaded as real versions, and
// helpers to send messages and wait on the event log.
import "@/server/durable/polyfill";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import net from "node:net";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { ModelProviderSettings } from "@/agents/runtime/models/resolve-model";
import type { SessionEvent, SessionEventOf } from "@/agents/sdk/events";
import { getFreePort } from "@/cli/start/ports";
import { startEmbeddedRestate, type EmbeddedRestate } from "@/cli/start/restate";
import { waitFor } from "@/cli/start/wait";
import type { Principal } from "@/server/auth/principal";
import { createAgentVersion } from "@/server/agents/create-agent-version";
import { createDb } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import type { DurableRuntime } from "@/server/durable/runtime";
import type { RetryBound } from "@/server/durable/retry-bound";
import { startWorkerServer, type WorkerServer } from "@/server/worker/endpoint";
import { readOrCreateSecretKey } from "@/server/secrets/secret-key";
import { setSecret } from "@/server/secrets/set-secret";
import { packSecretReader } from "@/server/secrets/read-pack-secrets";
import { startPackServer, type PackServer } from "./pack-server";
import { freshDatabaseUrl } from "./fresh-database";
import { readEvents } from "@/server/events/read-events";
import { followUpSession } from "@/server/sessions/follow-up-session";
import type { FollowUpBody, StartSessionBody } from "@/server/sessions/schema";
import { startSession, type AgentRef } from "@/server/sessions/start-session";
import { deleteSession } from "@/server/sessions/delete-session";
import { stopSession } from "@/server/sessions/stop-session";
import { zipFiles } from "./archives";

export type Harness = Awaited<ReturnType<typeof startTurnHarness>>;

export async function startTurnHarness(options: {
  /** The test Postgres: the harness makes a database of its own on it. */
  databaseUrl: string;
  workerProcess?: boolean;
  models?: ModelProviderSettings;
  approvalTimeoutMs?: number;
  /** The scheduler's clock (in-process worker only). */
  clock?: () => Date;
  /** Retries of failed turns: by default few and quick, so a test sees a turn give up in seconds. */
  retry?: RetryBound;
  /** How long a hook may take with one event (the worker's default otherwise). */
  hookTimeoutMs?: number;
  /** Host names agent code may reach, each standing for this machine (in-process worker only). */
  egressHosts?: string[];
  /** How many log lines each agent keeps (the worker's default otherwise). */
  logMaxLines?: number;
  /** host:port of MCP servers this machine runs for the test, reachable by remote connections. */
  mcpPrivateHosts?: string[];
  /** More variables for the worker process (workerProcess only), e.g. OTEL_*. */
  workerEnv?: Record<string, string>;
  /** Where the worker and the pack server find Slack's and GitHub's APIs (tests' fakes). */
  slackApiUrl?: string;
  githubApiUrl?: string;
  /** How long an eval case's claim holds (src/server/evals/eval-executor.ts). */
  evalLeaseMs?: number;
  evalJudgeModel?: string;
}) {
  // A database of its own, as an Agentfold instance has: workers hear every new session of their
  // database (eager turns) and sweep its running turns, so harnesses must not share one.
  const databaseUrl = await freshDatabaseUrl(options.databaseUrl);
  const db: PrismaClient = createDb(databaseUrl);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-turns-"));
  const restatePorts = { ingress: await getFreePort(), admin: await getFreePort(), node: await getFreePort() };
  let restate: EmbeddedRestate = await startEmbeddedRestate({ dataDir, ports: restatePorts, log: () => undefined });
  const runtime: DurableRuntime = createRestateRuntime({ ingressUrl: restate.ingressUrl, adminUrl: restate.adminUrl });
  const workerPort = await getFreePort();
  const retry = options.retry ?? { attempts: 3, initialIntervalMs: 200, maxIntervalMs: 1_000 };
  const workerConfig = {
    db,
    dataDir,
    models: options.models ?? {},
    defaultModel: "local:scripted",
    retryDelayMs: () => 20,
    approvalTimeoutMs: options.approvalTimeoutMs,
    clock: options.clock,
    runtime,
    retry,
    hookTimeoutMs: options.hookTimeoutMs,
    mcpPrivateHosts: options.mcpPrivateHosts,
    slackApiUrl: options.slackApiUrl,
    githubApiUrl: options.githubApiUrl,
    evalLeaseMs: options.evalLeaseMs,
    evalJudgeModel: options.evalJudgeModel,
    ...(options.logMaxLines ? { logRetention: { maxLinesPerAgent: options.logMaxLines, trimEveryMs: 0 } } : {}),
    ...(options.egressHosts
      ? {
          sandboxEgress: {
            egress: { kind: "domains" as const, domains: options.egressHosts },
            resolve: async (host: string) => (options.egressHosts!.includes(host) ? ["127.0.0.1"] : []),
          },
        }
      : {}),
  };
  let inProcess: WorkerServer | undefined;
  const extraWorkers: WorkerServer[] = [];
  let child: ChildProcess | undefined;

  async function startWorker(): Promise<void> {
    if (!options.workerProcess) {
      inProcess = await startWorkerServer({
        port: workerPort,
        host: "127.0.0.1",
        identityKeys: [restate.identityKey],
        deps: workerConfig,
      });
      return;
    }
    child = spawn(process.execPath, ["--import", "tsx", "src/server/worker/main.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        WORKER_PORT: String(workerPort),
        AGENTFOLD_HOST: "127.0.0.1",
        AGENTFOLD_DATA_DIR: dataDir,
        RESTATE_INGRESS_URL: restate.ingressUrl,
        RESTATE_ADMIN_URL: restate.adminUrl,
        RESTATE_IDENTITY_KEYS: restate.identityKey,
        AGENTFOLD_TURN_RETRY_ATTEMPTS: String(retry.attempts),
        AGENTFOLD_TURN_RETRY_MAX_INTERVAL_SECONDS: String(retry.maxIntervalMs / 1000),
        ...(options.slackApiUrl ? { SLACK_API_URL: options.slackApiUrl } : {}),
        ...(options.evalLeaseMs ? { AGENTFOLD_EVAL_LEASE_SECONDS: String(options.evalLeaseMs / 1000) } : {}),
        ...(options.githubApiUrl ? { GITHUB_API_URL: options.githubApiUrl } : {}),
        ...(options.mcpPrivateHosts ? { AGENTFOLD_MCP_PRIVATE_HOSTS: options.mcpPrivateHosts.join(",") } : {}),
        ...(options.hookTimeoutMs ? { AGENTFOLD_HOOK_TIMEOUT_SECONDS: String(options.hookTimeoutMs / 1000) } : {}),
        ...(options.logMaxLines ? { AGENTFOLD_LOG_MAX_LINES: String(options.logMaxLines) } : {}),
        ...(options.approvalTimeoutMs
          ? { AGENTFOLD_APPROVAL_TIMEOUT_SECONDS: String(Math.ceil(options.approvalTimeoutMs / 1000)) }
          : {}),
        ...options.workerEnv,
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitFor("the worker to listen", () => isListening(workerPort), { timeoutMs: 30_000 });
  }

  await startWorker();
  await runtime.registerWorker(`http://127.0.0.1:${workerPort}`);
  const team = await db.team.create({
    data: { slug: `turns-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`, name: "Turns" },
  });
  const owner: Principal = { kind: "app", id: `token:${team.id}` };

  async function deploy(slug: string, files: Record<string, string>): Promise<AgentRef> {
    return deployArchive(slug, await zipFiles(files, { wrap: slug }));
  }

  /** Deploys an archive as `agentfold deploy` uploads it (pack-project.ts), with the worker's model routing. */
  async function deployArchive(slug: string, archive: Buffer): Promise<AgentRef> {
    const fullSlug = `${slug}-${team.slug.slice(6)}`;
    const version = await createAgentVersion({
      db,
      dataDir,
      teamId: team.id,
      slug: fullSlug,
      archive,
      models: { defaultModel: workerConfig.defaultModel, aliases: workerConfig.models.aliases ?? {} },
    });
    if (version.status !== "ready")
      throw new Error(`test agent ${slug} is invalid: ${JSON.stringify(version.diagnostics)}`);
    const agent = await db.agent.findUniqueOrThrow({ where: { slug: fullSlug } });
    return { id: agent.id, slug: agent.slug, teamId: team.id, activeVersionId: agent.activeVersionId };
  }

  async function events(sessionId: string): Promise<SessionEvent[]> {
    return readEvents({ db, sessionId, fromIndex: 0 });
  }

  /** The log once `done` holds (default: the session waits or ended). */
  async function eventsUntil(
    sessionId: string,
    done: (events: SessionEvent[]) => boolean,
    timeoutMs = 30_000,
  ): Promise<SessionEvent[]> {
    let log: SessionEvent[] = [];
    await waitFor(
      `session ${sessionId} to reach the expected events`,
      async () => done((log = await events(sessionId))),
      { timeoutMs, intervalMs: 50 },
    );
    return log;
  }

  const secretKey = readOrCreateSecretKey(dataDir);
  let packServer: PackServer | undefined;

  return {
    db,
    dataDir,
    runtime,
    owner,
    deploy,
    deployArchive,
    /** Sets one of the agent's secrets, as `agentfold secret set` does. */
    setSecret: (agent: AgentRef, name: string, value: string) =>
      setSecret({ db, key: secretKey, agentId: agent.id, name, value }),
    /** An HTTP server answering the Slack and GitHub packs' channel routes as the web does
     * (`<url>/<slug>/v1/channels/<id>/…`), with this harness's database, engine and sandboxes. */
    async packServer(): Promise<PackServer> {
      packServer ??= await startPackServer({
        db,
        runtime,
        dataDir,
        secrets: packSecretReader({ db, key: secretKey, maxAgeMs: 0 }),
        ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
        ...(options.githubApiUrl ? { githubApiUrl: options.githubApiUrl } : {}),
      });
      return packServer;
    },
    /** Where the platform's own ports are (what agent code must not reach). */
    ports: () => ({
      restateIngress: restate.ingressUrl,
      restateAdmin: restate.adminUrl,
      worker: `http://127.0.0.1:${workerPort}`,
    }),
    events,
    eventsUntil,
    start: (agent: AgentRef, body: StartSessionBody, options: { mode?: "chat" | "task" } = {}) =>
      startSession({ db, runtime, agent, principal: owner, body, baseUrl: "http://test", mode: options.mode }),
    followUp: (agent: AgentRef, sessionId: string, body: FollowUpBody) =>
      followUpSession({ db, runtime, agentId: agent.id, sessionId, principal: owner, body }),
    stop: (agent: AgentRef, sessionId: string) =>
      stopSession({ db, runtime, agentId: agent.id, sessionId, principal: owner }),
    remove: (agent: AgentRef, sessionId: string) =>
      deleteSession({ db, runtime, agentId: agent.id, sessionId, principal: owner }),
    /** The session object's invocations Restate knows of (their turns are their idempotency keys). */
    async invocations(sessionId: string): Promise<string[]> {
      const response = await fetch(`${restate.adminUrl}/query`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          query: `SELECT idempotency_key FROM sys_invocation WHERE target_service_name = 'session' AND target_service_key = '${sessionId.replace(/'/g, "''")}'`,
        }),
      });
      if (!response.ok) throw new Error(`Restate's query API answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { rows: { idempotency_key: string }[] }).rows.map(
        (row) => row.idempotency_key,
      );
    },
    /** kill -9 the worker process (workerProcess mode), then start a new one on the same port. */
    async crashWorker(): Promise<void> {
      if (!child) throw new Error("crashWorker needs workerProcess: true");
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      await startWorker();
    },
    /** A second worker process's worth: another endpoint registered with the same Restate. */
    async startExtraWorker(): Promise<void> {
      const extra = await startWorkerServer({
        port: await getFreePort(),
        host: "127.0.0.1",
        identityKeys: [restate.identityKey],
        deps: workerConfig,
      });
      extraWorkers.push(extra);
      await runtime.registerWorker(extra.url);
    },
    /** Stops Restate and starts it again on the same data and ports. */
    async restartRestate(): Promise<void> {
      await restate.stop();
      restate = await startEmbeddedRestate({ dataDir, ports: restatePorts, log: () => undefined });
    },
    async close(): Promise<void> {
      await packServer?.close();
      child?.kill("SIGKILL");
      await inProcess?.close();
      for (const extra of extraWorkers) await extra.close();
      await restate.stop();
      await db.$disconnect();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** The events of one type, typed. */
export const ofType = <T extends SessionEvent["type"]>(log: SessionEvent[], type: T) =>
  log.filter((e): e is SessionEventOf<T> => e.type === type);

/** A condition for eventsUntil: at least `n` events of a type. */
export const has =
  (type: SessionEvent["type"], n = 1) =>
  (log: SessionEvent[]) =>
    ofType(log, type).length >= n;
