// The agent's MCP server in the /v1 table: POST /<slug>/v1/mcp (docs/api.md, "MCP"). The route
// helper authenticates and checks the agent before any MCP is spoken, so a token of another agent
// or team, or one with none of these actions, is refused with the usual 401 / 403 JSON; from then
// on answers are JSON-RPC (SSE), and each tool needs its own action (src/server/mcp/mcp-server.ts).
// The body is the transport's to read: it answers bad JSON with JSON-RPC errors.
import { z } from "zod";
import { serveMcp } from "@/server/mcp/serve-mcp";
import { db, durableRuntime, eventHub } from "../platform";
import { agentRoute } from "../v1-route";

export const mcpRoutes = [
  agentRoute({
    method: "POST",
    path: "/:slug/v1/mcp",
    name: "mcp",
    summary:
      "MCP Streamable HTTP (JSON-RPC 2.0, stateless; answers as text/event-stream): tools ask, check and the agent's direct tools",
    action: ["sessions:write", "sessions:read", "tools:call"],
    response: { json: z.looseObject({ jsonrpc: z.literal("2.0") }) },
    handler: async ({ request, caller, agent }) =>
      serveMcp({ request, caller, agent, deps: { db: db(), runtime: durableRuntime(), hub: await eventHub() } }),
  }),
];
