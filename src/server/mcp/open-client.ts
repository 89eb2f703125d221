// Opening one client of the MCP connection pool (connection-pool.ts) for a connection's resolved
// definition, with the SDK's own transports: stdio with the server inside the agent's walls;
// Streamable HTTP, falling back to SSE for older servers, through the reach-checked fetch and, for
// `oauth: true` connections, the agent's OAuth provider.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { reachCheckedFetch, UnreachableConnection } from "./connection-fetch";
import {
  ConnectionNeedsAuthorization,
  ConnectionUnavailable,
  type ConnectionPoolOptions,
  type ConnectionTarget,
  type OAuthProviders,
} from "./connection-pool-types";
import type { ResolvedConnection } from "./resolve-connection";
import { SandboxedStdioTransport } from "./sandboxed-stdio-transport";

/** The pool's options as it was given them: each is read when opening needs it. */
type OpenOptions = Pick<ConnectionPoolOptions, "sandboxes" | "reach" | "oauth" | "onStderr">;

const clientInfo = { name: "agentfold", version: "1" };

export function openClient(
  options: OpenOptions,
  connectTimeoutMs: number,
  target: ConnectionTarget,
  resolved: ResolvedConnection,
): Promise<Client> {
  const name = target.connection.name;
  if (resolved.form === "agent") return Promise.reject(new Error(`${name} is a peer agent, not an MCP server`));
  if (resolved.form === "stdio") return openStdio(options, connectTimeoutMs, target, resolved);
  return openRemote(options, connectTimeoutMs, target, resolved);
}

async function openStdio(
  options: OpenOptions,
  connectTimeoutMs: number,
  target: ConnectionTarget,
  resolved: Extract<ResolvedConnection, { form: "stdio" }>,
): Promise<Client> {
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
  await connect(client, transport, connectTimeoutMs);
  return client;
}

async function openRemote(
  options: OpenOptions,
  connectTimeoutMs: number,
  target: ConnectionTarget,
  resolved: Extract<ResolvedConnection, { form: "remote" }>,
): Promise<Client> {
  const name = target.connection.name;
  const url = new URL(resolved.url);
  const reach = await options.reach(target.spec.versionId);
  const fetch = reachCheckedFetch(reach);
  const requestInit = { headers: resolved.headers };
  const authProvider = resolved.oauth ? await options.oauth?.provider(target, url.href) : undefined;
  if (resolved.oauth && !authProvider) throw new ConnectionUnavailable(name, "OAuth connections are not set up here");
  const streamable = new Client(clientInfo);
  try {
    await connect(
      streamable,
      new StreamableHTTPClientTransport(url, { requestInit, fetch, authProvider }),
      connectTimeoutMs,
    );
    return streamable;
  } catch (error) {
    if (error instanceof UnauthorizedError) throw needsAuthorization(name, authProvider);
    if (error instanceof ConnectionUnavailable || error instanceof UnreachableConnection) throw error;
    // An older server speaks the HTTP+SSE transport instead.
    const sse = new Client(clientInfo);
    try {
      await connect(sse, new SSEClientTransport(url, { requestInit, fetch, authProvider }), connectTimeoutMs);
      return sse;
    } catch (sseError) {
      if (sseError instanceof UnauthorizedError) throw needsAuthorization(name, authProvider);
      throw error;
    }
  }
}

async function connect(client: Client, transport: Transport, connectTimeoutMs: number): Promise<void> {
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
