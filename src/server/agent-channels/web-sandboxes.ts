// The web process's own sandboxes, for channel routes: a route's handler answers an HTTP request
// while it is open (and may stream), so it runs beside the request rather than through the
// engine. Like the worker's pool: each version's declared secrets and egress, host calls
// answered here (src/server/turns/host-calls.ts). Created on the first channel request.
import type { AgentManifest } from "@/agents/loader/manifest";
import { createSandboxPool, type SandboxPool } from "@/agents/sandbox/pool";
import { env } from "@/env";
import { db } from "@/server/db";
import { agentLogs, agentSecretKey, durableRuntime } from "@/server/http/platform";
import { processLogger } from "@/server/logging/logger";
import { sandboxLogSink } from "@/server/logging/sandbox-log-sink";
import { createSecretReader } from "@/server/secrets/create-secret-reader";
import { packSecretReader } from "@/server/secrets/read-pack-secrets";
import { createProcessConnections } from "@/server/mcp/process-connections";
import { hostCallHandler } from "@/server/turns/host-calls";
import { modelSettings } from "@/server/models";
import { AppError } from "@/server/errors";

let pool: Promise<SandboxPool> | undefined;

export function webSandboxes(): Promise<SandboxPool> {
  pool ??= create().catch((error) => {
    pool = undefined;
    throw error;
  });
  return pool;
}

async function create(): Promise<SandboxPool> {
  const config = env();
  if (!config.DATABASE_URL) throw new AppError("unavailable", "DATABASE_URL is not set");
  const secrets = await createSecretReader({ db: db(), databaseUrl: config.DATABASE_URL, key: agentSecretKey() });
  const sink = sandboxLogSink(agentLogs(), processLogger());
  const sandboxes: SandboxPool = createSandboxPool({
    onLog: sink.onLog,
    onCallLog: sink.onCallLog,
    readSecrets: (versionId) => secrets.forVersion(versionId),
    declaredEgress: async (versionId) => {
      const version = await db().agentVersion.findUnique({ where: { id: versionId }, select: { manifest: true } });
      return (version?.manifest as AgentManifest | null)?.egressDomains;
    },
    onHostCall: hostCallHandler({
      db: db(),
      dataDir: config.dataDir,
      runtime: durableRuntime(),
      sandboxes: () => sandboxes,
      connections: () => connections,
      // ctx.host.github / ctx.host.slack in routes and pack handlers (onPullRequest …).
      packs: {
        secrets: packSecretReader({ db: db(), key: agentSecretKey() }),
        ...(config.SLACK_API_URL ? { slackApiUrl: config.SLACK_API_URL } : {}),
        ...(config.GITHUB_API_URL ? { githubApiUrl: config.GITHUB_API_URL } : {}),
      },
      // decide() in a route asks the agent's model from here, as a tool's does from the worker.
      decisions: { models: modelSettings(config), defaultModel: config.AGENTFOLD_DEFAULT_MODEL },
    }),
  });
  const connections = createProcessConnections({
    db: db(),
    sandboxes: () => sandboxes,
    readSecrets: (versionId) => secrets.forVersion(versionId),
    egress: config.AGENTFOLD_EGRESS,
    privateHosts: config.AGENTFOLD_MCP_PRIVATE_HOSTS,
    logs: agentLogs(),
  });
  return sandboxes;
}
