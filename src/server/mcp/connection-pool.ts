// The MCP clients of a process's agents (docs/agent-folders.md, "MCP connections"): one open
// client per agent version and connection, opened on first use with the SDK's own transports —
// Streamable HTTP, falling back to SSE for older servers; stdio with the server inside the
// agent's walls — reused by every session of that version, and closed after idleMs without use.
// Templates are resolved from the agent's secrets on every use: a changed value opens a new client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { SandboxPool, VersionSandboxSpec } from "@/agents/sandbox/pool";
import { reachCheckedFetch, UnreachableConnection, type ConnectionReach } from "./connection-fetch";
import { resolveConnection, type ManifestConnection, type ResolvedConnection } from "./resolve-connection";
import { SandboxedStdioTransport } from "./sandboxed-stdio-transport";

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

export type ConnectionPool = {
  tools: (target: ConnectionTarget, signal?: AbortSignal) => Promise<Tool[]>;
  callTool: (
    target: ConnectionTarget,
    tool: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ) => Promise<CallToolResult>;
  closeAll: () => Promise<void>;
  size: () => number;
};

type Entry = {
  configKey: string;
  client: Promise<Client>;
  tools?: Promise<Tool[]>;
  inFlight: number;
  idle?: NodeJS.Timeout;
  closed: boolean;
};

const clientInfo = { name: "agentfold", version: "1" };

export function createConnectionPool(options: ConnectionPoolOptions): ConnectionPool {
  const { idleMs = 5 * 60_000, connectTimeoutMs = 10_000 } = options;
  const entries = new Map<string, Entry>();

  const close = (key: string, entry: Entry) => {
    entry.closed = true;
    clearTimeout(entry.idle);
    if (entries.get(key) === entry) entries.delete(key);
    return entry.client.then((client) => client.close()).catch(() => undefined);
  };

  const touch = (key: string, entry: Entry) => {
    clearTimeout(entry.idle);
    if (entry.inFlight > 0 || entry.closed) return;
    entry.idle = setTimeout(() => void close(key, entry), idleMs);
    entry.idle.unref();
  };

  async function open(target: ConnectionTarget, resolved: ResolvedConnection): Promise<Client> {
    const name = target.connection.name;
    if (resolved.form === "agent") throw new Error(`${name} is a peer agent, not an MCP server`);
    if (resolved.form === "stdio") {
      const client = new Client(clientInfo);
      const transport = new SandboxedStdioTransport(() =>
        options
          .sandboxes()
          .spawnCommand(
            target.spec,
            { command: resolved.command, args: resolved.args, env: resolved.env, cwd: resolved.cwd },
            (line) => options.onStderr?.(target, line),
          ),
      );
      await connect(client, transport);
      return client;
    }
    const url = new URL(resolved.url);
    const reach = await options.reach(target.spec.versionId);
    const fetch = reachCheckedFetch(reach);
    const requestInit = { headers: resolved.headers };
    const authProvider = resolved.oauth ? await options.oauth?.provider(target, url.href) : undefined;
    if (resolved.oauth && !authProvider) throw new ConnectionUnavailable(name, "OAuth connections are not set up here");
    const streamable = new Client(clientInfo);
    try {
      await connect(streamable, new StreamableHTTPClientTransport(url, { requestInit, fetch, authProvider }));
      return streamable;
    } catch (error) {
      if (error instanceof UnauthorizedError) throw needsAuthorization(name, authProvider);
      if (error instanceof ConnectionUnavailable || error instanceof UnreachableConnection) throw error;
      // An older server speaks the HTTP+SSE transport instead.
      const sse = new Client(clientInfo);
      try {
        await connect(sse, new SSEClientTransport(url, { requestInit, fetch, authProvider }));
        return sse;
      } catch (sseError) {
        if (sseError instanceof UnauthorizedError) throw needsAuthorization(name, authProvider);
        throw error;
      }
    }
  }

  async function connect(client: Client, transport: Transport): Promise<void> {
    try {
      await client.connect(transport, { timeout: connectTimeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  function needsAuthorization(name: string, provider: Awaited<ReturnType<OAuthProviders["provider"]>> | undefined) {
    const url = provider?.pendingAuthorization();
    return url ? new ConnectionNeedsAuthorization(name, url.href) : new ConnectionUnavailable(name, "unauthorized");
  }

  /** The entry for the target's current definition, opening (or reopening) its client. */
  async function entryFor(target: ConnectionTarget): Promise<{ key: string; entry: Entry }> {
    const name = target.connection.name;
    const key = `${target.spec.versionId}\t${name}`;
    const secrets = await options.readSecrets(target.spec.versionId);
    const { resolved, missing } = resolveConnection(target.connection, secrets);
    if (missing.length > 0)
      throw new ConnectionUnavailable(name, `the secret${missing.length > 1 ? "s" : ""} ${missing.join(", ")} not set`);
    const stamp = resolved.form === "remote" && resolved.oauth ? await options.oauth?.stamp(target) : undefined;
    const configKey = JSON.stringify({ resolved, stamp });
    const kept = entries.get(key);
    if (kept && !kept.closed && kept.configKey === configKey) return { key, entry: kept };
    if (kept) void close(key, kept);
    const entry: Entry = { configKey, client: open(target, resolved), inFlight: 0, closed: false };
    entries.set(key, entry);
    entry.client.then(
      (client) => {
        client.onclose = () => void close(key, entry);
        client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
          entry.tools = undefined;
        });
      },
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return { key, entry };
  }

  /** Runs `use` with the target's client, counting it as busy meanwhile. */
  async function withClient<T>(
    target: ConnectionTarget,
    use: (client: Client, entry: Entry) => Promise<T>,
  ): Promise<T> {
    const { key, entry } = await entryFor(target);
    entry.inFlight++;
    clearTimeout(entry.idle);
    try {
      return await use(await reasoned(target, entry.client), entry);
    } catch (error) {
      // The server could not be reached (not an MCP error it answered): the next use opens a
      // new client, so a server that went away is noticed by the next turn.
      if (!(error instanceof McpError)) void close(key, entry);
      throw error;
    } finally {
      entry.inFlight--;
      touch(key, entry);
    }
  }

  return {
    tools: (target, signal) =>
      withClient(target, (client, entry) => {
        entry.tools ??= listAll(client, signal);
        entry.tools.catch(() => (entry.tools = undefined));
        return reasoned(target, entry.tools);
      }),
    callTool: (target, tool, args, callOptions = {}) =>
      withClient(
        target,
        async (client) =>
          (await client.callTool({ name: tool, arguments: args }, undefined, {
            signal: callOptions.signal,
            timeout: callOptions.timeoutMs,
            resetTimeoutOnProgress: true,
          })) as CallToolResult,
      ),
    async closeAll() {
      await Promise.all([...entries].map(([key, entry]) => close(key, entry)));
    },
    size: () => entries.size,
  };
}

async function listAll(client: Client, signal?: AbortSignal): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { signal });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** Failures to reach a server, as ConnectionUnavailable naming the connection. */
async function reasoned<T>(target: ConnectionTarget, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ConnectionUnavailable) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ConnectionUnavailable(target.connection.name, message);
  }
}
