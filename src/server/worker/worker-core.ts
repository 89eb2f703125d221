// What the worker's Restate services run on, made at start-up: the agents' log writer, the sandbox
// pool and MCP connections, the listeners for cancellations, authorizations and secrets' changes,
// and the WorkerDeps that hold them.
import { createWorkspaceStock } from "@/agents/runtime/workspace-stock";
import { env } from "@/env";
import { poolOf } from "@/server/db";
import type { WorkerDeps } from "@/server/durable/worker-deps";
import { createAgentLogWriter } from "@/server/logging/agent-logs";
import { processLogger } from "@/server/logging/logger";
import { sandboxLogSink } from "@/server/logging/sandbox-log-sink";
import { createAuthorizationWaits } from "@/server/mcp/authorization-waits";
import { peerAgents } from "@/server/mcp/peer-agents";
import { createSecretReader } from "@/server/secrets/create-secret-reader";
import { packSecretReader } from "@/server/secrets/read-pack-secrets";
import { readOrCreateSecretKey } from "@/server/secrets/secret-key";
import { createTurnCancellations } from "@/server/turns/cancellation";
import { createSandboxes } from "./sandboxes";
import type { PackAccess, WorkerConfig, WorkerCore } from "./worker-parts";

/** secretKey decrypts agent secrets (env.ts secretKey); the data directory's key when absent. */
export async function createWorkerCore(config: WorkerConfig, secretKey: Buffer | undefined): Promise<WorkerCore> {
  const log = processLogger();
  const agentKey = secretKey ?? readOrCreateSecretKey(config.dataDir);
  // Agent code's output and the platform's lines about an agent, for GET /v1/logs.
  const logs = createAgentLogWriter({
    db: config.db,
    ...config.logRetention,
    onError: (error) => log.error({ err: error.message }, "could not store agent log lines"),
  });
  const sink = sandboxLogSink(logs, log);
  const packs = packAccess(config, agentKey);
  const { sandboxes, pool } = createSandboxes({
    config,
    agentKey,
    logs,
    sink,
    packs,
    // Only the secrets each version expects, cached until a change is announced (create-secret-reader.ts).
    readSecrets: (versionId) => secrets.forVersion(versionId),
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
  return { deps, log, agentKey, databaseUrl, packs, logs, sandboxes, pool, cancellations, authorizations, secrets };
}

function packAccess(config: WorkerConfig, agentKey: Buffer): PackAccess {
  // Slack's and GitHub's credentials: read by the platform, never given to the sandbox.
  const secrets = packSecretReader({ db: config.db, key: agentKey });
  const slackApiUrl = config.slackApiUrl ?? env().SLACK_API_URL;
  const githubApiUrl = config.githubApiUrl ?? env().GITHUB_API_URL;
  return { secrets, apiUrls: { ...(slackApiUrl ? { slackApiUrl } : {}), ...(githubApiUrl ? { githubApiUrl } : {}) } };
}
