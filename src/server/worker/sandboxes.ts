// The sandbox pool agent code runs in, and the MCP connections its host calls reach: each needs
// the other, so they are made together and each reaches the other only when called.
import type { AgentManifest } from "@/agents/loader/manifest";
import { createSandboxPool, type SandboxPool } from "@/agents/sandbox/pool";
import { env } from "@/env";
import type { AgentLogWriter } from "@/server/logging/agent-logs";
import type { sandboxLogSink } from "@/server/logging/sandbox-log-sink";
import type { ConnectionPool } from "@/server/mcp/connection-pool";
import { mcpOAuthCallbackUrl } from "@/server/mcp/finish-authorization";
import { oauthProviders } from "@/server/mcp/oauth-store";
import { createProcessConnections } from "@/server/mcp/process-connections";
import type { SecretReader } from "@/server/secrets/create-secret-reader";
import { hostCallHandler } from "@/server/turns/host-calls";
import type { PackAccess, WorkerConfig } from "./worker-parts";

export function createSandboxes({
  config,
  agentKey,
  logs,
  sink,
  packs,
  readSecrets,
}: {
  config: WorkerConfig;
  agentKey: Buffer;
  logs: AgentLogWriter;
  sink: ReturnType<typeof sandboxLogSink>;
  packs: PackAccess;
  readSecrets: SecretReader["forVersion"];
}): { sandboxes: SandboxPool; pool: ConnectionPool } {
  const sandboxes: SandboxPool = createSandboxPool({
    onLog: sink.onLog,
    onCallLog: sink.onCallLog,
    readSecrets,
    declaredEgress: (versionId) => declaredEgress(config.db, versionId),
    ...(config.sandboxEgress
      ? { egress: config.sandboxEgress.egress, resolveEgress: config.sandboxEgress.resolve }
      : {}),
    onHostCall: hostCalls(
      config,
      packs,
      () => sandboxes,
      () => pool,
    ),
  });
  const pool = createProcessConnections({
    db: config.db,
    sandboxes: () => sandboxes,
    readSecrets,
    egress: config.sandboxEgress?.egress ?? env().AGENTFOLD_EGRESS,
    privateHosts: config.mcpPrivateHosts ?? env().AGENTFOLD_MCP_PRIVATE_HOSTS,
    logs,
    oauth: oauthProviders({
      db: config.db,
      key: agentKey,
      callbackUrl: mcpOAuthCallbackUrl(config.publicUrl ?? env().publicUrl),
    }),
  });
  return { sandboxes, pool };
}

/** The platform's side of agent code's host calls (src/server/turns/host-calls.ts). */
function hostCalls(
  config: WorkerConfig,
  packs: PackAccess,
  sandboxes: () => SandboxPool,
  connections: () => ConnectionPool,
) {
  return hostCallHandler({
    db: config.db,
    dataDir: config.dataDir,
    runtime: config.runtime,
    sandboxes,
    telemetry: config.telemetry,
    connections,
    packs: { secrets: packs.secrets, ...packs.apiUrls },
    grading: {
      models: config.models,
      judgeModel: config.evalJudgeModel ?? env().AGENTFOLD_EVAL_JUDGE_MODEL ?? config.defaultModel,
    },
    decisions: { models: config.models, defaultModel: config.defaultModel },
  });
}

/** A version's `hosting.egressDomains`, from its manifest (versions never change). */
async function declaredEgress(db: WorkerConfig["db"], versionId: string): Promise<string[] | undefined> {
  const version = await db.agentVersion.findUnique({ where: { id: versionId }, select: { manifest: true } });
  return (version?.manifest as AgentManifest | null)?.egressDomains;
}
