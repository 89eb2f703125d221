// The worker's HTTP/2 (h2c) server around the Restate endpoint handler. Restate keeps its
// HTTP/2 sessions open, so closing also ends them; otherwise close() would wait forever.
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import * as restate from "@restatedev/restate-sdk";
import { createWorkspaceStock } from "@/agents/runtime/workspace-stock";
import type { AgentManifest } from "@/agents/loader/manifest";
import { createSandboxPool, type SandboxPool } from "@/agents/sandbox/pool";
import { hostCallHandler } from "@/server/turns/host-calls";
import { poolOf } from "@/server/db";
import { createSecretReader } from "@/server/secrets/create-secret-reader";
import { readOrCreateSecretKey } from "@/server/secrets/secret-key";
import { createTurnCancellations } from "@/server/turns/cancellation";
import { healthService } from "@/server/durable/health-service";
import { remindersObject } from "@/server/durable/reminders-object";
import { schedulerObject } from "@/server/durable/scheduler-object";
import { runEagerly, sessionObject } from "@/server/durable/session-object";
import { toolsService } from "@/server/durable/tools-service";
import type { WorkerDeps } from "@/server/durable/worker-deps";
import { createHookDispatcher } from "@/server/hooks/hook-dispatcher";
import { packDeliveries } from "@/server/agent-channels/packs";
import { packSecretReader } from "@/server/secrets/read-pack-secrets";
import { startSlackSockets } from "@/server/slack/socket-mode";
import { startEvalExecutor } from "@/server/evals/eval-executor";
import { createAgentLogWriter } from "@/server/logging/agent-logs";
import { processLogger } from "@/server/logging/logger";
import { sandboxLogSink } from "@/server/logging/sandbox-log-sink";
import { env } from "@/env";
import { createAuthorizationWaits } from "@/server/mcp/authorization-waits";
import { mcpOAuthCallbackUrl } from "@/server/mcp/finish-authorization";
import { oauthProviders } from "@/server/mcp/oauth-store";
import { peerAgents } from "@/server/mcp/peer-agents";
import { createProcessConnections } from "@/server/mcp/process-connections";
import { createEagerTurns } from "./eager-turns";

/** Every Restate service and object this worker serves. */
function createServices(deps: WorkerDeps) {
  return [healthService, sessionObject(deps), toolsService(deps), schedulerObject(deps), remindersObject(deps)];
}

export type WorkerServer = { url: string; close: () => Promise<void> };

/** What the caller configures; the sandbox pool and the listeners belong to the server. */
export type WorkerConfig = Omit<
  WorkerDeps,
  "sandboxes" | "cancellations" | "eager" | "workspaces" | "logs" | "connections"
>;

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
  const log = processLogger();
  const agentKey = secretKey ?? readOrCreateSecretKey(config.dataDir);
  // Agent code's output and the platform's lines about an agent, for GET /v1/logs.
  const logs = createAgentLogWriter({
    db: config.db,
    ...config.logRetention,
    onError: (error) => log.error({ err: error.message }, "could not store agent log lines"),
  });
  const sink = sandboxLogSink(logs, log);
  // Slack's and GitHub's credentials: read by the platform, never given to the sandbox.
  const packSecrets = packSecretReader({ db: config.db, key: agentKey });
  const slackApiUrl = config.slackApiUrl ?? env().SLACK_API_URL;
  const githubApiUrl = config.githubApiUrl ?? env().GITHUB_API_URL;
  const packApiUrls = { ...(slackApiUrl ? { slackApiUrl } : {}), ...(githubApiUrl ? { githubApiUrl } : {}) };
  const sandboxes: SandboxPool = createSandboxPool({
    onLog: sink.onLog,
    onCallLog: sink.onCallLog,
    // Only the secrets each version expects, cached until a change is announced (create-secret-reader.ts).
    readSecrets: (versionId) => secrets.forVersion(versionId),
    declaredEgress: (versionId) => declaredEgress(config.db, versionId),
    ...(config.sandboxEgress
      ? { egress: config.sandboxEgress.egress, resolveEgress: config.sandboxEgress.resolve }
      : {}),
    onHostCall: hostCallHandler({
      db: config.db,
      dataDir: config.dataDir,
      runtime: config.runtime,
      sandboxes: () => sandboxes,
      telemetry: config.telemetry,
      connections: () => pool,
      packs: { secrets: packSecrets, ...packApiUrls },
      grading: {
        models: config.models,
        judgeModel: config.evalJudgeModel ?? env().AGENTFOLD_EVAL_JUDGE_MODEL ?? config.defaultModel,
      },
      decisions: { models: config.models, defaultModel: config.defaultModel },
    }),
  });
  const pool = createProcessConnections({
    db: config.db,
    sandboxes: () => sandboxes,
    readSecrets: (versionId) => secrets.forVersion(versionId),
    egress: config.sandboxEgress?.egress ?? env().AGENTFOLD_EGRESS,
    privateHosts: config.mcpPrivateHosts ?? env().AGENTFOLD_MCP_PRIVATE_HOSTS,
    logs,
    oauth: oauthProviders({
      db: config.db,
      key: agentKey,
      callbackUrl: mcpOAuthCallbackUrl(config.publicUrl ?? env().publicUrl),
    }),
  });
  const databaseUrl = poolOf(config.db).options.connectionString;
  if (!databaseUrl) throw new Error("the worker's database client has no connection string");
  const cancellations = await createTurnCancellations({ databaseUrl });
  const authorizations = await createAuthorizationWaits({ databaseUrl });
  const secrets = await createSecretReader({ db: config.db, databaseUrl, key: agentKey });
  const deps: WorkerDeps = {
    ...config,
    sandboxes,
    cancellations,
    logs,
    workspaces: createWorkspaceStock(),
    connections: { pool, peers: peerAgents({ db: config.db, runtime: config.runtime }), authorizations },
  };
  // Events reach hooks from here, never from the turn that appends them.
  const hooks = await createHookDispatcher({
    db: config.db,
    databaseUrl,
    dataDir: config.dataDir,
    sandboxes,
    logs,
    timeoutMs: config.hookTimeoutMs ?? 30_000,
    packs: packDeliveries({
      db: config.db,
      dataDir: config.dataDir,
      secrets: packSecrets,
      logs,
      ...packApiUrls,
    }),
  });
  // Slack channels with an app token take their events over Socket Mode from here.
  const slackSockets = config.runtime
    ? await startSlackSockets({
        db: config.db,
        databaseUrl,
        runtime: config.runtime,
        // Read fresh: a refresh follows a secret's change.
        secrets: packSecretReader({ db: config.db, key: agentKey, maxAgeMs: 0 }),
        log: (line) => log.warn(line),
        ...(slackApiUrl ? { slackApiUrl } : {}),
      })
    : undefined;
  // Eval runs' cases: their turns go through the engine too.
  const evals = config.runtime
    ? await startEvalExecutor({
        db: config.db,
        databaseUrl,
        dataDir: config.dataDir,
        sandboxes,
        leaseMs: config.evalLeaseMs ?? env().AGENTFOLD_EVAL_LEASE_SECONDS * 1000,
        log: (line) => log.warn(line),
      })
    : undefined;
  // Eager runs need the engine to hand turns over to.
  if (config.runtime) {
    const eager = await createEagerTurns({
      db: config.db,
      databaseUrl,
      runtime: config.runtime,
      run: (turn, hints) => runEagerly(deps, hints, turn),
    });
    deps.eager = eager;
  }
  const server = http2.createServer(
    restate.createEndpointHandler({ services: createServices(deps), identityKeys: identityKeys ?? undefined }),
  );
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const session of sessions) session.close();
      for (const session of sessions) session.destroy();
      await closed;
      await Promise.all([
        hooks.close(),
        slackSockets?.close(),
        evals?.close(),
        cancellations.close(),
        secrets.close(),
        authorizations.close(),
        deps.eager?.close(),
      ]);
      await pool.closeAll();
      await sandboxes.stopAll();
      await logs.close();
    },
  };
}

/** A version's `hosting.egressDomains`, from its manifest (versions never change). */
async function declaredEgress(db: WorkerConfig["db"], versionId: string): Promise<string[] | undefined> {
  const version = await db.agentVersion.findUnique({ where: { id: versionId }, select: { manifest: true } });
  return (version?.manifest as AgentManifest | null)?.egressDomains;
}
