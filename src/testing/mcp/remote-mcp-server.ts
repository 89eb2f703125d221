// A real MCP server for tests, written with the SDK: Streamable HTTP (stateless: a server and a
// transport per request) on 127.0.0.1, with an `echo` tool that answers its arguments and the
// authorization header it was sent, a read-only `lookup`, and a `wipe` its annotations mark
// destructive. It keeps the headers of every request.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export type RemoteMcpServer = {
  url: string;
  /** host:port, for AGENTFOLD_MCP_PRIVATE_HOSTS. */
  hostPort: string;
  seenAuthorizations: string[];
  close: () => Promise<void>;
};

function mcpServer(authorization: string): McpServer {
  const server = new McpServer({ name: "test-remote", version: "1.0.0" });
  server.registerTool(
    "echo",
    {
      description: "Answers its arguments and the authorization it was called with",
      inputSchema: { x: z.number().optional(), text: z.string().optional() },
    },
    async (args) => ({
      content: [{ type: "text", text: JSON.stringify({ echoed: args, authorization }) }],
    }),
  );
  server.registerTool(
    "lookup",
    {
      description: "Looks a ticket up",
      inputSchema: { id: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ id }) => ({ content: [{ type: "text", text: `ticket ${id}: open` }] }),
  );
  server.registerTool(
    "wipe",
    { description: "Deletes everything", annotations: { destructiveHint: true } },
    async () => ({ content: [{ type: "text", text: "wiped" }] }),
  );
  return server;
}

export async function startRemoteMcpServer(): Promise<RemoteMcpServer> {
  const seenAuthorizations: string[] = [];
  const httpServer = http.createServer(async (request, response) => {
    if (!request.url?.startsWith("/mcp")) return void response.writeHead(404).end();
    const authorization = String(request.headers.authorization ?? "");
    seenAuthorizations.push(authorization);
    const server = mcpServer(authorization);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on("close", () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    hostPort: `127.0.0.1:${port}`,
    seenAuthorizations,
    close: () =>
      new Promise((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
