// The helpdesk the support-desk example's `helpdesk` MCP connection points at: a small ticket
// system served over MCP Streamable HTTP with the official SDK, so the example's connection works
// on one machine. Run it with `npm run example:helpdesk` (port 4610, or HELPDESK_PORT); it asks
// for `Authorization: Bearer $HELPDESK_TOKEN` when that variable is set. The platform reaches it
// only when the operator allows it: AGENTFOLD_MCP_PRIVATE_HOSTS=127.0.0.1:4610.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

type Ticket = { id: string; subject: string; status: "open" | "pending" | "closed"; notes: string[] };

function seedTickets(): Map<string, Ticket> {
  const tickets: Ticket[] = [
    { id: "T-100", subject: "Parcel A-1001 has not arrived", status: "open", notes: [] },
    { id: "T-101", subject: "Refund for a broken kettle", status: "pending", notes: ["Photo received"] },
    { id: "T-102", subject: "Change of delivery address", status: "closed", notes: ["Done by phone"] },
  ];
  return new Map(tickets.map((ticket) => [ticket.id, ticket]));
}

const text = (value: unknown) => ({ content: [{ type: "text" as const, text: JSON.stringify(value) }] });

function helpdeskServer(tickets: Map<string, Ticket>): McpServer {
  const server = new McpServer({ name: "example-helpdesk", version: "1.0.0" });
  server.registerTool(
    "list_tickets",
    {
      description: "List helpdesk tickets, optionally only those with one status",
      inputSchema: { status: z.enum(["open", "pending", "closed"]).optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ status }) =>
      text([...tickets.values()].filter((ticket) => !status || ticket.status === status).map(({ notes, ...t }) => t)),
  );
  server.registerTool(
    "get_ticket",
    {
      description: "One ticket with its notes",
      inputSchema: { id: z.string().describe("A ticket id such as T-100") },
      annotations: { readOnlyHint: true },
    },
    async ({ id }) => {
      const ticket = tickets.get(id);
      return ticket ? text(ticket) : { content: [{ type: "text", text: `no ticket ${id}` }], isError: true };
    },
  );
  server.registerTool(
    "add_note",
    {
      description: "Add an internal note to a ticket",
      inputSchema: { id: z.string(), note: z.string().min(1) },
    },
    async ({ id, note }) => {
      const ticket = tickets.get(id);
      if (!ticket) return { content: [{ type: "text", text: `no ticket ${id}` }], isError: true };
      ticket.notes.push(note);
      return text(ticket);
    },
  );
  return server;
}

export type HelpdeskServer = { url: string; hostPort: string; close: () => Promise<void> };

export async function startHelpdeskServer(
  options: { port?: number; host?: string; token?: string } = {},
): Promise<HelpdeskServer> {
  const { port = 4610, host = "127.0.0.1", token } = options;
  const tickets = seedTickets();
  const httpServer = http.createServer(async (request, response) => {
    if (new URL(request.url ?? "/", "http://x").pathname !== "/mcp") return void response.writeHead(404).end();
    if (token && request.headers.authorization !== `Bearer ${token}`)
      return void response.writeHead(401, { "content-type": "text/plain" }).end("a bearer token is needed\n");
    // Stateless: a server and a transport for each request, over the one ticket store.
    const server = helpdeskServer(tickets);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on("close", () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(port, host, resolve);
  });
  const address = httpServer.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}/mcp`,
    hostPort: `${host}:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const server = await startHelpdeskServer({
    port: Number(process.env.HELPDESK_PORT ?? 4610),
    token: process.env.HELPDESK_TOKEN || undefined,
  });
  console.log(`helpdesk MCP server on ${server.url}`);
  console.log(`let agents reach it: AGENTFOLD_MCP_PRIVATE_HOSTS=${server.hostPort}`);
}
