// The agent as an MCP server, built for one HTTP request (the transport is stateless:
// ./serve-mcp.ts). Tools: `ask` (needs sessions:write), `check` (sessions:read) and the agent's
// direct tools (./mcp-server-tools.ts). Errors as MCP says: a tool that is not listed for this
// caller is a JSON-RPC error (-32602); arguments that fail the schema and refusals (no such
// session, another's session …) are results with isError, so a model can read them; anything
// unexpected is a JSON-RPC internal error, its details logged and never sent.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CancelledNotificationSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Caller } from "@/server/auth/principal";
import { AppError } from "@/server/errors";
import { errorFields, processLogger } from "@/server/logging/logger";
import type { TokenAction } from "@/server/tokens/scopes";
import { askAgent, type AskAgentDeps } from "./ask-agent";
import { checkAgentSession } from "./ask-agent-check";
import {
  type AskResult,
  askInputSchema,
  askOutputSchema,
  checkInputSchema,
  checkOutputSchema,
} from "./ask-agent-schema";
import { cancelMcpRequest, trackMcpRequest } from "./mcp-server-inflight";
import { progressMessage } from "./mcp-server-progress";
import type { AgentBySlug } from "@/server/agents/find-agent-by-slug";
import { callDirectTool, directTools, toMcpTool } from "./mcp-server-tools";

export type McpAgent = Omit<AgentBySlug, "allowAnonymous">;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type Context = { deps: AskAgentDeps; agent: McpAgent; caller: Caller };

const jsonSchema = (schema: z.ZodType, io: "input" | "output") => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return rest as Tool["inputSchema"];
};

const ownTools: { tool: (agent: McpAgent) => Tool; action: TokenAction }[] = [
  {
    action: "sessions:write",
    tool: (agent) => ({
      name: "ask",
      description:
        `Send a message to ${agent.name} and wait for the reply. Leave out sessionId to start a new conversation; ` +
        "pass the sessionId of an earlier answer to continue it (a turn still running there is interrupted). " +
        "A turn that waits for a person's approval answers status waiting_approval; use check later.",
      inputSchema: jsonSchema(askInputSchema, "input"),
      outputSchema: jsonSchema(askOutputSchema, "output"),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    }),
  },
  {
    action: "sessions:read",
    tool: (agent) => ({
      name: "check",
      description: `How the latest turn of a conversation with ${agent.name} stands: status, reply, calls waiting for approval.`,
      inputSchema: jsonSchema(checkInputSchema, "input"),
      outputSchema: jsonSchema(checkOutputSchema, "output"),
      annotations: { readOnlyHint: true },
    }),
  },
];

export function createMcpServer(context: Context): McpServer {
  const { agent, caller } = context;
  const mcp = new McpServer(
    { name: agent.slug, title: agent.name, version: "1" },
    { capabilities: { tools: {} }, ...(agent.description ? { instructions: agent.description } : {}) },
  );
  const may = (action: TokenAction) => caller.can(action, agent.slug, agent.teamId);
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...ownTools.filter((own) => may(own.action)).map((own) => own.tool(agent)),
      ...(await directTools(context.deps.db, agent, caller)).map(toMcpTool),
    ],
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const own = ownTools.find((candidate) => candidate.tool(agent).name === name);
    if (own && !may(own.action))
      throw new McpError(ErrorCode.InvalidParams, `${name} needs a token with ${own.action} on '${agent.slug}'`);
    try {
      if (name === "ask") return await ask(context, args, extra);
      if (name === "check") return await check(context, args);
      const tool = (await directTools(context.deps.db, agent, caller)).find((candidate) => candidate.name === name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
      return await callDirectTool({ ...context.deps, agent, caller, tool, args });
    } catch (error) {
      return failed(error, name);
    }
  });
  // A cancel comes in a request of its own, to a server of its own: it finds its request by id.
  mcp.server.setNotificationHandler(CancelledNotificationSchema, (notification) => {
    const { requestId, reason } = notification.params;
    if (requestId !== undefined) cancelMcpRequest(agent.id, caller.principal, requestId, reason);
  });
  return mcp;
}

async function ask(context: Context, args: unknown, extra: Extra): Promise<CallToolResult> {
  const input = askInputSchema.safeParse(args ?? {});
  if (!input.success) return invalid("ask", input.error);
  const tracked = trackMcpRequest(context.agent.id, context.caller.principal, extra.requestId);
  const token = extra._meta?.progressToken;
  let progress = 0;
  try {
    const answer = await askAgent(context.deps, {
      agent: context.agent,
      principal: context.caller.principal,
      message: input.data.message,
      sessionId: input.data.sessionId,
      signal: tracked.signal,
      onProgress:
        token === undefined
          ? undefined
          : (event) =>
              void extra
                .sendNotification({
                  method: "notifications/progress",
                  params: { progressToken: token, progress: ++progress, message: progressMessage(event) },
                })
                // A client that is gone misses its progress; the turn goes on.
                .catch(() => undefined),
    });
    const isError = answer.status === "failed" || answer.status === "cancelled";
    return { content: [{ type: "text", text: askText(answer) }], structuredContent: answer, isError };
  } finally {
    tracked.done();
  }
}

/** The answer as a model reads it: the reply, or why there is none. */
function askText(answer: AskResult): string {
  if (answer.status === "failed" || answer.status === "cancelled") return answer.error ?? `the turn ${answer.status}`;
  if (answer.status === "waiting_approval") {
    const calls = (answer.pendingApprovals ?? []).map((call) => call.toolName).join(", ");
    return `The turn waits for a person to approve ${calls || "a tool call"}; call check with sessionId ${answer.sessionId} later.`;
  }
  return answer.reply ?? "";
}

async function check(context: Context, args: unknown): Promise<CallToolResult> {
  const input = checkInputSchema.safeParse(args ?? {});
  if (!input.success) return invalid("check", input.error);
  const state = await checkAgentSession(context.deps, {
    agent: context.agent,
    principal: context.caller.principal,
    sessionId: input.data.sessionId,
  });
  return { content: [{ type: "text", text: JSON.stringify(state) }], structuredContent: state };
}

function invalid(tool: string, error: z.ZodError): CallToolResult {
  return {
    content: [{ type: "text", text: `Invalid arguments for ${tool}: ${z.prettifyError(error)}` }],
    isError: true,
  };
}

function failed(error: unknown, tool: string): CallToolResult {
  if (error instanceof McpError) throw error;
  if (error instanceof AppError)
    return { content: [{ type: "text", text: `${error.code}: ${error.message}` }], isError: true };
  processLogger().error({ tool, ...errorFields(error) }, "an MCP tool call failed");
  throw new McpError(ErrorCode.InternalError, "Something went wrong on our side.");
}
