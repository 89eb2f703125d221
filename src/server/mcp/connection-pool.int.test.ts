// The MCP client pool on its own, against a real SDK-written server: one client per version and
// connection, shared by its uses, closed after its idle time, reopened when a secret its
// templates read changes.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxPool } from "@/agents/sandbox/pool";
import { startRemoteMcpServer, type RemoteMcpServer } from "@/testing/mcp/remote-mcp-server";
import { createConnectionPool, type ConnectionTarget } from "./connection-pool";

let remote: RemoteMcpServer;

beforeAll(async () => {
  remote = await startRemoteMcpServer();
});

afterAll(async () => {
  await remote?.close();
});

const target = (versionId: string, url = remote.url): ConnectionTarget => ({
  agentId: "agent-1",
  spec: { versionId, bundlePath: "/nowhere/bundle.mjs", projectDir: "/nowhere", agentDir: "/nowhere" },
  connection: {
    name: "srv",
    file: "bot/mcp-connections/srv.ts",
    scope: "mcp",
    config: { form: "remote", url, headers: { authorization: "Bearer ${TOKEN}" } },
  },
});

describe("the MCP connection pool", () => {
  it("shares one client per version, closes it when idle, and reopens it for a new secret", async () => {
    const secrets: Record<string, string> = { TOKEN: "one" };
    const pool = createConnectionPool({
      sandboxes: () => ({}) as SandboxPool,
      readSecrets: async () => ({ ...secrets }),
      reach: async () => ({ policy: { kind: "open" }, privateHosts: [remote.hostPort] }),
      // Long enough that v1's client outlives v2's first connect on a loaded machine (200 ms did not).
      idleMs: 2_000,
    });
    const seen = () => remote.seenAuthorizations.length;
    const listed = await pool.tools(target("v1"));
    expect(listed.map((tool) => tool.name).sort()).toEqual(["echo", "lookup", "wipe"]);
    await pool.tools(target("v1"));
    await pool.tools(target("v2"));
    expect(pool.size()).toBe(2);
    // A second listing of v1 was the kept one: no request reached the server for it.
    const before = seen();
    await pool.tools(target("v1"));
    expect(seen()).toBe(before);

    secrets.TOKEN = "two";
    const answer = await pool.callTool(target("v1"), "echo", { x: 2 });
    expect(JSON.stringify(answer)).toContain("Bearer two");
    expect(pool.size()).toBe(2);

    await expect.poll(() => pool.size(), { timeout: 15_000 }).toBe(0);
    await pool.closeAll();
  });
});

/** An older server that speaks only the HTTP+SSE transport (GET /sse, POST /messages). */
async function startSseOnlyServer() {
  const transports = new Map<string, SSEServerTransport>();
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    if (request.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", response);
      transports.set(transport.sessionId, transport);
      const mcp = new McpServer({ name: "old-sse", version: "1.0.0" });
      mcp.registerTool("ping", { description: "Answers pong" }, async () => ({
        content: [{ type: "text", text: "pong" }],
      }));
      await mcp.connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (request.method === "POST" && url.pathname === "/messages" && transport)
      return void (await transport.handlePostMessage(request, response));
    response.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    hostPort: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe("an older MCP server", () => {
  it("is reached over the SSE transport when Streamable HTTP is refused", async () => {
    const old = await startSseOnlyServer();
    const pool = createConnectionPool({
      sandboxes: () => ({}) as SandboxPool,
      readSecrets: async () => ({ TOKEN: "t" }),
      reach: async () => ({ policy: { kind: "open" }, privateHosts: [old.hostPort] }),
    });
    try {
      expect((await pool.tools(target("v-sse", old.url))).map((tool) => tool.name)).toEqual(["ping"]);
      expect(JSON.stringify(await pool.callTool(target("v-sse", old.url), "ping", {}))).toContain("pong");
    } finally {
      await pool.closeAll();
      await old.close();
    }
  });
});
