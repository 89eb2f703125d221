// The seam of the MCP connection pool (connection-pool.ts): what it shares with the opening of its
// clients (open-client.ts) — the connection a use is for, the errors that name it, the OAuth side
// and the pool's options. connection-pool.ts exports them again for its importers.
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { SandboxPool, VersionSandboxSpec } from "@/agents/sandbox/pool";
import type { ConnectionReach } from "./connection-fetch";
import type { ManifestConnection } from "./resolve-connection";

/** One connection of one agent version. */
export type ConnectionTarget = {
  agentId: string;
  spec: VersionSandboxSpec;
  connection: ManifestConnection;
};

/** A connection that cannot be used now; the turn names it ("Reconnect <name>"). */
export class ConnectionUnavailable extends Error {
  constructor(
    readonly connection: string,
    reason: string,
  ) {
    super(`Reconnect ${connection}: ${reason}`);
  }
}

/** An `oauth: true` connection nobody has connected yet: someone must open authorizeUrl. */
export class ConnectionNeedsAuthorization extends ConnectionUnavailable {
  constructor(
    connection: string,
    readonly authorizeUrl: string,
  ) {
    super(connection, "it needs to be connected (OAuth) first");
  }
}

/** The OAuth side of remote `oauth: true` connections (oauth-store.ts): a provider for a connect,
 * and a stamp of what the agent holds now (a Disconnect or a new Connect changes it, and the
 * pool then opens a new client rather than go on with tokens the agent no longer holds). */
export type OAuthProviders = {
  provider: (
    target: ConnectionTarget,
    serverUrl: string,
  ) => Promise<OAuthClientProvider & { pendingAuthorization(): URL | undefined }>;
  stamp: (target: ConnectionTarget) => Promise<string>;
};

export type ConnectionPoolOptions = {
  sandboxes: () => SandboxPool;
  readSecrets: (versionId: string) => Promise<Record<string, string>>;
  reach: (versionId: string) => Promise<ConnectionReach>;
  oauth?: OAuthProviders;
  /** A stdio server's stderr line, for the agent's logs. */
  onStderr?: (target: ConnectionTarget, line: string) => void;
  idleMs?: number;
  connectTimeoutMs?: number;
};
