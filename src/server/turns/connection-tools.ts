// The tools a turn's MCP connections give the model (docs/agent-folders.md, "MCP connections"),
// gathered when the turn starts. Each connection in mcp-connections/ is opened (pooled: usually
// already open) and listed: with `advertiseTools: true` each of its tools is offered as
// `<connection>__<tool>` with the server's JSON schema; the others are reached through one `mcp`
// tool that lists and calls them. Peer agents (`{ agent }`) give `<connection>__ask` and
// `__check`. A connection that cannot be opened fails the turn ("Reconnect <name>"), unless it is
// `optional`: then it is left out and the agent's log says why. host-connections/ are for
// ctx.host.mcp alone.
import path from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { versionPaths, versionSandboxSpec } from "@/server/agents/storage";
import { connectionConfig, type ManifestConnection } from "@/server/mcp/resolve-connection";
import { ConnectionUnavailable, type ConnectionPool, type ConnectionTarget } from "@/server/mcp/connection-pool";
import type { TurnConnections, TurnSetup } from "./engine";
import type { ToolSpec } from "./turn-tools";

/** How long one MCP tool call may take (as an agent tool's default). */
export const mcpToolTimeoutMs = 60_000;

export type ConnectionToolsInput = {
  dataDir: string;
  setup: TurnSetup;
  turnId: string;
  signal: AbortSignal;
  /** A connection left out (optional, unreachable): said once in the agent's log. */
  warn: (message: string) => void;
};

export async function connectionTools(
  connections: TurnConnections | undefined,
  input: ConnectionToolsInput,
): Promise<ToolSpec[]> {
  const { setup } = input;
  const declared = setup.manifest.connections.filter((connection) => connection.scope === "mcp");
  if (declared.length === 0) return [];
  if (!connections)
    throw new ConnectionUnavailable(declared[0]!.name, "MCP connections are not available in this process");
  const peers = declared.filter((connection) => connectionConfig(connection).form === "agent");
  const servers = declared.filter((connection) => connectionConfig(connection).form !== "agent");
  const listed = await Promise.all(
    servers.map(async (connection) => {
      const target = connectionTarget(input.dataDir, turnVersion(setup), connection);
      try {
        return { connection, target, tools: await connections.pool.tools(target, input.signal) };
      } catch (error) {
        if (!connectionConfig(connection).optional || input.signal.aborted) throw error;
        input.warn(`MCP connection ${connection.name} was left out of this turn: ${(error as Error).message}`);
        return undefined;
      }
    }),
  );
  const open = listed.filter((entry) => entry !== undefined);
  const specs: ToolSpec[] = [];
  for (const { connection, target, tools } of open) {
    if (!connectionConfig(connection).advertiseTools) continue;
    for (const tool of tools) specs.push(serverToolSpec(connections.pool, target, tool));
  }
  const unadvertised = open.filter(({ connection }) => !connectionConfig(connection).advertiseTools);
  if (unadvertised.length > 0) specs.push(mcpTool(connections.pool, unadvertised));
  for (const connection of peers) specs.push(...peerToolSpecs(connections, input, connection));
  return specs;
}

export function connectionTarget(
  dataDir: string,
  version: { agentId: string; versionId: string; bundlePath: string | null },
  connection: ManifestConnection,
): ConnectionTarget {
  const { agentId, versionId } = version;
  // A version with no modules has no bundle: a stdio server still runs beside its project.
  const bundlePath = version.bundlePath ?? path.join(versionPaths(dataDir, agentId, versionId).bundle, "none");
  return { agentId, spec: versionSandboxSpec(dataDir, { agentId, versionId, bundlePath }), connection };
}

/** `<connection>__<tool>`, kept to the characters and length model providers accept. */
export function modelToolName(connection: string, tool: string): string {
  return `${connection}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

const turnVersion = (setup: TurnSetup) => ({
  agentId: setup.session.agentId,
  versionId: setup.session.versionId,
  bundlePath: setup.bundlePath,
});

function serverToolSpec(pool: ConnectionPool, target: ConnectionTarget, tool: Tool): ToolSpec {
  const connection = target.connection.name;
  const isReadOnly = tool.annotations?.readOnlyHint === true;
  return {
    kind: "builtin",
    name: modelToolName(connection, tool.name),
    description: tool.description ?? tool.annotations?.title ?? `${tool.name} (MCP connection ${connection})`,
    inputSchema: tool.inputSchema,
    effect: isReadOnly ? "read" : "write",
    // A tool its server marks destructive waits for a person, as a needsApproval tool does.
    needsApproval: !isReadOnly && tool.annotations?.destructiveHint === true,
    isIdempotent: tool.annotations?.idempotentHint === true,
    execute: (args, call) =>
      pool.callTool(target, tool.name, objectArgs(args), { signal: call.signal, timeoutMs: mcpToolTimeoutMs }),
  };
}

/** One tool for the connections whose tools are not advertised: list them, then call one. */
function mcpTool(pool: ConnectionPool, open: { connection: ManifestConnection; target: ConnectionTarget }[]): ToolSpec {
  const byName = new Map(open.map((entry) => [entry.connection.name, entry.target]));
  const described = open
    .map(({ connection }) => {
      const about = connectionConfig(connection).description;
      return about ? `${connection.name} (${about})` : connection.name;
    })
    .join("; ");
  return {
    kind: "builtin",
    name: "mcp",
    effect: "write",
    description: `Use a tool of an MCP server. Give only \`connection\` to list its tools (names, descriptions, input schemas); give \`tool\` and \`arguments\` to call one. Connections: ${described}.`,
    inputSchema: {
      type: "object",
      properties: {
        connection: { type: "string", enum: [...byName.keys()] },
        tool: { type: "string" },
        arguments: { type: "object", additionalProperties: true },
      },
      required: ["connection"],
      additionalProperties: false,
    },
    async execute(input, call) {
      const {
        connection,
        tool,
        arguments: args,
      } = (input ?? {}) as {
        connection?: string;
        tool?: string;
        arguments?: unknown;
      };
      const target = byName.get(String(connection));
      if (!target)
        throw new Error(`no MCP connection named ${String(connection)}; connections: ${[...byName.keys()].join(", ")}`);
      if (tool === undefined) {
        const tools = await pool.tools(target, call.signal);
        return tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
      }
      return pool.callTool(target, tool, objectArgs(args), { signal: call.signal, timeoutMs: mcpToolTimeoutMs });
    },
  };
}

function peerToolSpecs(connections: TurnConnections, input: ConnectionToolsInput, connection: ManifestConnection) {
  const { peers } = connections;
  if (!peers) throw new ConnectionUnavailable(connection.name, "peer agents are not available in this process");
  const slug = String(connectionConfig(connection).agent);
  const about = connectionConfig(connection).description;
  const caller = { setup: input.setup, turnId: input.turnId };
  const specs: ToolSpec[] = [
    {
      kind: "builtin",
      name: modelToolName(connection.name, "ask"),
      effect: "write",
      description: `Ask the agent ${slug}${about ? ` (${about})` : ""} and wait for its reply. Give sessionId (from an earlier answer) to continue that conversation.`,
      inputSchema: {
        type: "object",
        properties: { message: { type: "string" }, sessionId: { type: "string" } },
        required: ["message"],
        additionalProperties: false,
      },
      execute: (args, call) => peers.ask(caller, slug, args as { message: string; sessionId?: string }, call.signal),
    },
    {
      kind: "builtin",
      name: modelToolName(connection.name, "check"),
      effect: "read",
      description: `The state of a conversation with the agent ${slug}: its status, last reply and pending approvals.`,
      inputSchema: {
        type: "object",
        properties: { sessionId: { type: "string" } },
        required: ["sessionId"],
        additionalProperties: false,
      },
      execute: (args) => peers.check(caller, slug, args as { sessionId: string }),
    },
  ];
  return specs;
}

function objectArgs(args: unknown): Record<string, unknown> {
  return typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}
