// The MCP clients of a process's agents (docs/agent-folders.md, "MCP connections"): one open
// client per agent version and connection, opened on first use with the SDK's own transports —
// Streamable HTTP, falling back to SSE for older servers; stdio with the server inside the
// agent's walls — reused by every session of that version, and closed after idleMs without use.
// Templates are resolved from the agent's secrets on every use: a changed value opens a new client.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { ConnectionUnavailable, type ConnectionPoolOptions, type ConnectionTarget } from "./connection-pool-types";
import { openClient } from "./open-client";
import { closeEntry, holdEntry, keptOrOpened, releaseEntry, type Entries, type Entry } from "./pool-entries";
import { resolveConnection } from "./resolve-connection";

export {
  ConnectionNeedsAuthorization,
  ConnectionUnavailable,
  type ConnectionPoolOptions,
  type ConnectionTarget,
  type OAuthProviders,
} from "./connection-pool-types";

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

/** One pool: the options it was given (read when needed), its timings with defaults, its entries. */
type Pool = { options: ConnectionPoolOptions; idleMs: number; connectTimeoutMs: number; entries: Entries };

export function createConnectionPool(options: ConnectionPoolOptions): ConnectionPool {
  const { idleMs = 5 * 60_000, connectTimeoutMs = 10_000 } = options;
  const entries: Entries = new Map();
  const pool: Pool = { options, idleMs, connectTimeoutMs, entries };
  return {
    tools: (target, signal) =>
      withClient(pool, target, (client, entry) => {
        entry.tools ??= listAll(client, signal);
        entry.tools.catch(() => (entry.tools = undefined));
        return reasoned(target, entry.tools);
      }),
    callTool: (target, tool, args, callOptions = {}) =>
      withClient(
        pool,
        target,
        async (client) =>
          (await client.callTool({ name: tool, arguments: args }, undefined, {
            signal: callOptions.signal,
            timeout: callOptions.timeoutMs,
            resetTimeoutOnProgress: true,
          })) as CallToolResult,
      ),
    async closeAll() {
      await Promise.all([...entries].map(([key, entry]) => closeEntry(entries, key, entry)));
    },
    size: () => entries.size,
  };
}

/** The entry for the target's current definition, opening (or reopening) its client. */
async function entryFor(pool: Pool, target: ConnectionTarget): Promise<{ key: string; entry: Entry }> {
  const { options } = pool;
  const name = target.connection.name;
  const key = `${target.spec.versionId}\t${name}`;
  const secrets = await options.readSecrets(target.spec.versionId);
  const { resolved, missing } = resolveConnection(target.connection, secrets);
  if (missing.length > 0)
    throw new ConnectionUnavailable(name, `the secret${missing.length > 1 ? "s" : ""} ${missing.join(", ")} not set`);
  const stamp = resolved.form === "remote" && resolved.oauth ? await options.oauth?.stamp(target) : undefined;
  const configKey = JSON.stringify({ resolved, stamp });
  const open = () => openClient(options, pool.connectTimeoutMs, target, resolved);
  return { key, entry: keptOrOpened(pool.entries, key, configKey, open) };
}

/** Runs `use` with the target's client, counting it as busy meanwhile. */
async function withClient<T>(
  pool: Pool,
  target: ConnectionTarget,
  use: (client: Client, entry: Entry) => Promise<T>,
): Promise<T> {
  const { key, entry } = await entryFor(pool, target);
  holdEntry(entry);
  try {
    return await use(await reasoned(target, entry.client), entry);
  } catch (error) {
    // The server could not be reached (not an MCP error it answered): the next use opens a
    // new client, so a server that went away is noticed by the next turn.
    if (!(error instanceof McpError)) void closeEntry(pool.entries, key, entry);
    throw error;
  } finally {
    releaseEntry(pool.entries, key, entry, pool.idleMs);
  }
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
