// A process's MCP connection pool (worker or web) with what it needs from the platform: each
// version's secrets (for `${NAME}` templates), its egress policy (the agent's hosting.egressDomains
// within AGENTFOLD_EGRESS) plus the operator's private MCP hosts, and the agent's logs for what a
// stdio server writes to stderr.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import { agentEgressPolicy, type EgressPolicy } from "@/agents/sandbox/egress-policy";
import type { SandboxPool } from "@/agents/sandbox/pool";
import type { AgentLogWriter } from "@/server/logging/agent-logs";
import type { ConnectionReach } from "./connection-fetch";
import { createConnectionPool, type ConnectionPool, type OAuthProviders } from "./connection-pool";

export type ProcessConnectionsOptions = {
  db: PrismaClient;
  sandboxes: () => SandboxPool;
  readSecrets: (versionId: string) => Promise<Record<string, string>>;
  egress: EgressPolicy;
  privateHosts: readonly string[];
  logs?: AgentLogWriter;
  oauth?: OAuthProviders;
  idleMs?: number;
};

/** What an agent version's remote connections may reach: its egress policy, the private MCP hosts. */
export function versionReach(options: Pick<ProcessConnectionsOptions, "db" | "egress" | "privateHosts">) {
  const { db } = options;
  const declared = new Map<string, Promise<string[] | undefined>>();
  // Versions never change: their declared egress is read once.
  const declaredEgress = (versionId: string) => {
    let read = declared.get(versionId);
    if (!read) {
      read = db.agentVersion
        .findUnique({ where: { id: versionId }, select: { manifest: true } })
        .then((version) => (version?.manifest as AgentManifest | null)?.egressDomains);
      read.catch(() => declared.delete(versionId));
      declared.set(versionId, read);
    }
    return read;
  };
  return async (versionId: string): Promise<ConnectionReach> => ({
    policy: agentEgressPolicy(options.egress, await declaredEgress(versionId)),
    privateHosts: options.privateHosts,
  });
}

export function createProcessConnections(options: ProcessConnectionsOptions): ConnectionPool {
  const { logs } = options;
  return createConnectionPool({
    sandboxes: options.sandboxes,
    readSecrets: options.readSecrets,
    reach: versionReach(options),
    oauth: options.oauth,
    idleMs: options.idleMs,
    onStderr: (target, line) =>
      logs?.write({
        agentId: target.agentId,
        level: "info",
        source: "platform",
        message: `[mcp ${target.connection.name}] ${line}`,
      }),
  });
}
