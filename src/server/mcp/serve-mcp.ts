// Answers one HTTP request to /<slug>/v1/mcp (MCP Streamable HTTP) for an authenticated caller:
// a new stateless transport and server per request, so any web process can serve any request.
// Requests are answered as SSE, so progress notifications can go out while `ask` waits; JSON-RPC
// notifications (a cancel) get 202. A client that disconnects stops nothing (only a cancel does);
// the wait ends with its turn and the answer goes nowhere.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Caller } from "@/server/auth/principal";
import type { AskAgentDeps } from "./ask-agent";
import { createMcpServer, type McpAgent } from "./mcp-server";

/** The /v1 body limit (docs/api.md, "Validation"). */
const maxBodyBytes = 1024 * 1024;

export async function serveMcp(options: {
  request: Request;
  deps: AskAgentDeps;
  agent: McpAgent;
  caller: Caller;
}): Promise<Response> {
  const { request, deps, agent, caller } = options;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: maxBodyBytes,
  });
  const server = createMcpServer({ deps, agent, caller });
  await server.connect(transport);
  return transport.handleRequest(request);
}
