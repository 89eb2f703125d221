// The agent as an MCP server, spoken to by the official MCP SDK client over real HTTP, against a
// real Postgres, Restate and worker running the offline model: listing, ask and follow-up ask,
// check, progress notifications, cancellation that stops the turn, approvals, direct tools, and
// the tokens that are refused.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { poolOf } from "@/server/db";
import type { NextHandler } from "@/server/http/v1-route";
import type { AgentRef } from "@/server/sessions/start-session";
import { createToken } from "@/server/tokens/create-token";
import { approvalAgent, engineAgent } from "@/testing/engine-agents";
import { askAgent } from "./ask-agent";
import { checkAgentSession } from "./ask-agent-check";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

let h: Harness;
let agent: AgentRef;
let other: AgentRef;
let server: http.Server;
let baseUrl = "";
let closeWeb = async () => {};
const tokens: Record<string, string> = {};
const clients: Client[] = [];

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  const folder = { ...engineAgent, "bot/tools/refund.ts": approvalAgent["bot/tools/refund.ts"]! };
  agent = await h.deploy("mcp", folder);
  other = await h.deploy("mcp-other", engineAgent);
  // The route handlers read their configuration from the environment on first use.
  const { restateIngress, restateAdmin } = h.ports();
  Object.assign(process.env, {
    DATABASE_URL: poolOf(h.db).options.connectionString,
    AGENTFOLD_DATA_DIR: h.dataDir,
    RESTATE_INGRESS_URL: restateIngress,
    RESTATE_ADMIN_URL: restateAdmin,
    AGENTFOLD_SINGLE_AGENT: agent.slug,
  });
  const make = async (name: string, actions: string[], agentSlugs = [agent.slug]) =>
    (tokens[name] = (await createToken({ db: h.db, teamId: agent.teamId, name, actions, agentSlugs })).token);
  await make("caller", ["sessions:read", "sessions:write", "tools:call"]);
  await make("stranger", ["sessions:read", "sessions:write", "tools:call"]);
  await make("approver", ["*"]);
  await make("reader", ["sessions:read"]);
  await make("infoOnly", ["agents:read"]);
  await make("otherAgent", ["*"], [other.slug]);
  // The worker read (and cached) the environment first: the web's modules are loaded anew.
  vi.resetModules();
  const routes = await import("@/server/http/v1-routes");
  const platform = await import("@/server/http/platform");
  const credentials = await import("@/server/auth/credential-cache");
  closeWeb = async () => {
    await (await platform.eventHub()).close();
    await (await credentials.processCredentialCache(process.env.DATABASE_URL!)).close();
  };
  const route = routes.v1Routes.find((entry) => entry.name === "mcp")!;
  server = await serveMcpRoute(routes.handlerOf(route, false), routes.handlerOf(route, true));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await closeWeb();
  await h?.close();
});

/** The route table's handlers for POST /:slug/v1/mcp and /v1/mcp behind node:http, their SSE
 * answers streamed as they come (as Next serves them); other methods are 405, as Next answers a
 * method a route lacks. */
async function serveMcpRoute(handler: NextHandler, unslugged: NextHandler): Promise<http.Server> {
  const httpServer = http.createServer(async (req, res) => {
    const match = /^(?:\/([^/]+))?\/v1\/mcp$/.exec(req.url ?? "");
    if (!match) return void res.writeHead(404).end();
    const slug = match[1];
    const serve = slug ? handler : unslugged;
    if (req.method !== "POST") return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const request = new Request(`${baseUrl}${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) });
    const response = await serve(request, { params: Promise.resolve(slug ? { slug } : {}) });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) res.write(read.value);
    res.end();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return httpServer;
}

async function connect(token: string, slug = agent.slug): Promise<Client> {
  const client = new Client({ name: "agentfold-test", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}${slug ? `/${slug}` : ""}/v1/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type AskAnswer = {
  sessionId: string;
  status: string;
  reply: string | null;
  error?: string;
  pendingApprovals?: unknown[];
};

const textOf = (result: unknown) =>
  (result as { content: { text: string }[] }).content.map((part) => part.text).join("\n");

describe("the agent as an MCP server", () => {
  it("lists ask, check and the tools a direct call would run for this caller", async () => {
    const client = await connect(tokens.caller!);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names.slice(0, 2)).toEqual(["ask", "check"]);
    expect(names).toContain("lookup");
    // needsApproval: true runs directly only for a caller who may approve it.
    expect(names).not.toContain("refund");
    expect(tools.find((tool) => tool.name === "ask")).toMatchObject({
      inputSchema: { type: "object", required: ["message"] },
      outputSchema: { type: "object" },
    });
    expect(tools.find((tool) => tool.name === "lookup")?.annotations).toMatchObject({ readOnlyHint: true });
    const approver = await connect(tokens.approver!);
    expect((await approver.listTools()).tools.map((tool) => tool.name)).toContain("refund");
  });

  it("ask answers the model's reply with progress; a follow-up continues the session; check reports it", async () => {
    const client = await connect(tokens.caller!);
    const progress: Progress[] = [];
    const first = await client.callTool({ name: "ask", arguments: { message: "Hello MCP" } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toContain('You said: "Hello MCP". I am the offline scripted model');
    const answer = first.structuredContent as AskAnswer;
    expect(answer).toMatchObject({ status: "completed", reply: textOf(first) });
    expect(answer.sessionId).toMatch(/^ses_/);
    expect(progress.map((p) => p.message)).toEqual(
      expect.arrayContaining([`message received in session ${answer.sessionId}`, "turn started", "turn completed"]),
    );
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));

    const second = await client.callTool({
      name: "ask",
      arguments: { message: "And again", sessionId: answer.sessionId },
    });
    expect(second.structuredContent).toMatchObject({ sessionId: answer.sessionId, status: "completed" });
    expect(textOf(second)).toContain('You said: "And again"');
    const log = await h.events(answer.sessionId);
    expect(ofType(log, "message.received").map((e) => e.data.text)).toEqual(["Hello MCP", "And again"]);
    expect(ofType(log, "turn.completed")).toHaveLength(2);

    const checked = await client.callTool({ name: "check", arguments: { sessionId: answer.sessionId } });
    expect(checked.structuredContent).toEqual({
      sessionId: answer.sessionId,
      status: "completed",
      reply: textOf(second),
      pendingApprovals: [],
    });
  });

  it("cancelling the request stops the turn", async () => {
    const client = await connect(tokens.caller!);
    const controller = new AbortController();
    let sessionId = "";
    const asked = client.callTool({ name: "ask", arguments: { message: "Take your time [delay 20s]" } }, undefined, {
      signal: controller.signal,
      onprogress: (update) => {
        sessionId ||= /session (ses_\w+)/.exec(update.message ?? "")?.[1] ?? "";
        if (update.message?.startsWith("step")) controller.abort("changed my mind");
      },
    });
    await expect(asked).rejects.toThrow();
    const log = await h.eventsUntil(sessionId, has("turn.failed"), 15_000);
    expect(ofType(log, "turn.failed")[0]!.data).toMatchObject({ status: "cancelled", message: "turn interrupted" });
    expect(ofType(log, "turn.completed")).toHaveLength(0);
  });

  it("a failed turn is isError with its message; a parked one answers waiting_approval, and check agrees", async () => {
    const client = await connect(tokens.caller!);
    const failed = await client.callTool({ name: "ask", arguments: { message: "Try [fail: upstream timeout]" } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toContain("upstream timeout");
    expect(failed.structuredContent).toMatchObject({ status: "failed", error: expect.stringContaining("upstream") });

    const parked = await client.callTool({ name: "ask", arguments: { message: '[call refund {"amount":5}]' } });
    const answer = parked.structuredContent as AskAnswer;
    expect(answer).toMatchObject({ status: "waiting_approval", pendingApprovals: [{ toolName: "refund" }] });
    expect(textOf(parked)).toContain("approve refund");
    const checked = await client.callTool({ name: "check", arguments: { sessionId: answer.sessionId } });
    expect(checked.structuredContent).toMatchObject({
      status: "waiting_approval",
      pendingApprovals: [{ toolName: "refund" }],
    });
  });

  it("runs direct tools through the direct-call path; bad arguments are isError, unknown tools a JSON-RPC error", async () => {
    const client = await connect(tokens.caller!);
    const looked = await client.callTool({ name: "lookup", arguments: { orderId: "M1" } });
    expect(looked.isError).toBe(false);
    expect(JSON.parse(textOf(looked))).toEqual({ orderId: "M1", status: "shipped" });
    const rich = await client.callTool({ name: "rich", arguments: {} });
    expect(textOf(rich)).toBe("line one\nline two");
    const invalid = await client.callTool({ name: "lookup", arguments: { orderId: 7 } });
    expect(invalid).toMatchObject({ isError: true });
    expect(textOf(invalid)).toContain("orderId");
    const badAsk = await client.callTool({ name: "ask", arguments: { message: "" } });
    expect(badAsk.isError).toBe(true);
    expect(textOf(badAsk)).toContain("message");
    await expect(client.callTool({ name: "refund", arguments: { amount: 1 } })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it("keeps sessions to their owner", async () => {
    const owner = await connect(tokens.caller!);
    const { sessionId } = (await owner.callTool({ name: "ask", arguments: { message: "mine" } }))
      .structuredContent as AskAnswer;
    const stranger = await connect(tokens.stranger!);
    const followUp = await stranger.callTool({ name: "ask", arguments: { message: "hijack", sessionId } });
    expect(followUp.isError).toBe(true);
    expect(textOf(followUp)).toContain("forbidden");
    expect((await stranger.callTool({ name: "check", arguments: { sessionId } })).isError).toBe(true);
    expect(ofType(await h.events(sessionId), "message.received")).toHaveLength(1);
  });

  it("refuses a token of another agent, and one with no MCP action, before MCP; without sessions:write, no ask", async () => {
    await expect(connect(tokens.otherAgent!)).rejects.toMatchObject({ code: 403 });
    const refused = await fetch(`${baseUrl}/${agent.slug}/v1/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${tokens.otherAgent}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ ok: false, error: "forbidden" });
    await expect(connect(tokens.infoOnly!)).rejects.toMatchObject({ code: 403 });
    await expect(connect("af_not_a_token")).rejects.toMatchObject({ code: 401 });
    // The other agent's own endpoint takes it.
    expect((await (await connect(tokens.otherAgent!, other.slug)).listTools()).tools.map((t) => t.name)).toContain(
      "ask",
    );

    const reader = await connect(tokens.reader!);
    expect((await reader.listTools()).tools.map((tool) => tool.name)).toEqual(["check"]);
    await expect(reader.callTool({ name: "ask", arguments: { message: "hi" } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("sessions:write"),
    });
  });

  it("answers at /v1/mcp in single-agent mode", async () => {
    const client = await connect(tokens.caller!, "");
    const asked = await client.callTool({ name: "ask", arguments: { message: "unslugged" } });
    expect(asked.structuredContent).toMatchObject({ status: "completed", reply: expect.stringContaining("unslugged") });
  });
});

describe("askAgent without an event hub (as the worker calls it)", () => {
  it("polls the log: a new session, then a follow-up in it", async () => {
    const events: string[] = [];
    const deps = { db: h.db, runtime: h.runtime };
    const first = await askAgent(deps, { agent, principal: h.owner, message: "from a peer" });
    expect(first).toMatchObject({ status: "completed", reply: expect.stringContaining('"from a peer"') });
    const second = await askAgent(deps, {
      agent,
      principal: h.owner,
      message: "and back",
      sessionId: first.sessionId,
      onProgress: (event) => events.push(event.type),
    });
    expect(second).toMatchObject({ sessionId: first.sessionId, status: "completed" });
    expect(events[0]).toBe("message.received");
    expect(events.at(-1)).toBe("turn.completed");
    expect(await checkAgentSession(deps, { agent, principal: h.owner, sessionId: first.sessionId })).toMatchObject({
      status: "completed",
      reply: second.reply,
    });
    await expect(
      askAgent(deps, {
        agent,
        principal: { kind: "app", id: "token:nobody" },
        message: "x",
        sessionId: first.sessionId,
      }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});
