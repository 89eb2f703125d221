// The agent as an MCP server on the production build (docs/api.md, "MCP"): the official MCP
// client over Streamable HTTP through Next, with progress over SSE, and tokens refused before MCP.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { baseUrl, tokens } from "./client";

async function connect(path: string, token: string): Promise<Client> {
  const client = new Client({ name: "e2e", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl()}${path}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

test("ask answers the reply with progress; a follow-up continues; check reports it", async () => {
  const client = await connect("/hello/v1/mcp", tokens().owner);
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name).slice(0, 2)).toEqual(["ask", "check"]);
    const progress: string[] = [];
    const first = await client.callTool({ name: "ask", arguments: { message: "Hello over MCP" } }, undefined, {
      onprogress: (update) => progress.push(update.message ?? ""),
    });
    const answer = first.structuredContent as { sessionId: string; status: string; reply: string };
    expect(answer).toMatchObject({ status: "completed", reply: expect.stringContaining('"Hello over MCP"') });
    expect(progress).toContain("turn completed");
    const second = await client.callTool({
      name: "ask",
      arguments: { message: "Once more", sessionId: answer.sessionId },
    });
    expect(second.structuredContent).toMatchObject({ sessionId: answer.sessionId, status: "completed" });
    const checked = await client.callTool({ name: "check", arguments: { sessionId: answer.sessionId } });
    expect(checked.structuredContent).toMatchObject({
      status: "completed",
      reply: expect.stringContaining('"Once more"'),
    });
  } finally {
    await client.close();
  }
});

test("a token scoped to another agent is 403 before any MCP; no token is 401", async () => {
  const answer = await fetch(`${baseUrl()}/hello/v1/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${tokens().scoped}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(answer.status).toBe(403);
  expect(await answer.json()).toMatchObject({ ok: false, error: "forbidden" });
  await expect(connect("/hello/v1/mcp", "")).rejects.toMatchObject({ code: 401 });
});
