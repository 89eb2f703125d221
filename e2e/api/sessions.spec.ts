// /v1 session API contract: every route, status and error code, every NDJSON line parsed with
// the event schema. Runs against a production build started through the supervisor.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { workspaceDir } from "../../src/server/agents/storage";
import { api, parseDump, readStream, tokens } from "./client";

const untilWaiting = (count: number) => (_: unknown, all: { type: string }[]) =>
  all.filter((e) => e.type === "session.waiting").length >= count;

test.describe.configure({ mode: "serial" });

let sessionId: string;
let continuationToken: string;

test("POST /<slug>/v1/session starts a session and its first turn", async () => {
  const started = await api("POST", "/hello/v1/session", {
    token: tokens().owner,
    body: { message: "Hello from the contract tests", title: "Contract" },
    headers: { "accept-encoding": "gzip" },
  });
  expect(started.status).toBe(200);
  // API answers are never compressed (a few hundred bytes; gzip cost more than the rest of a POST).
  expect(started.headers.get("content-encoding")).toBeNull();
  expect(started.headers.get("cache-control")).toBe("no-store, no-transform");
  expect(started.json).toMatchObject({
    ok: true,
    sessionId: expect.stringMatching(/^ses_/),
    continuationToken: expect.stringMatching(/^http:/),
    playgroundUrl: expect.stringMatching(/\/hello\/playground\?sessionId=ses_/),
    traceUrl: expect.stringMatching(/\/hello\/v1\/session\/ses_\w+\/events$/),
  });
  ({ sessionId, continuationToken } = started.json);
});

test("the stream replays from 0 and equals the events dump", async () => {
  const { response, events } = await readStream(
    `/hello/v1/session/${sessionId}/stream?startIndex=0`,
    tokens().owner,
    untilWaiting(1),
  );
  expect(response.headers.get("content-type")).toContain("application/x-ndjson");
  expect(events.map((e) => e.type)).toContain("turn.completed");
  const dump = await api("GET", `/hello/v1/session/${sessionId}/events`, { token: tokens().owner });
  expect(dump.status).toBe(200);
  expect(parseDump(dump.text)).toEqual(events);
});

test("a reconnect with startIndex=k yields exactly the events from k on", async () => {
  const all = parseDump((await api("GET", `/hello/v1/session/${sessionId}/events`, { token: tokens().owner })).text);
  const k = 5;
  const { events } = await readStream(
    `/hello/v1/session/${sessionId}/stream?startIndex=${k}`,
    tokens().owner,
    (_, got) => got.length === all.length - k,
  );
  expect(events).toEqual(all.slice(k));
  const page = parseDump(
    (await api("GET", `/hello/v1/session/${sessionId}/events?startIndex=2&limit=3`, { token: tokens().owner })).text,
  );
  expect(page.map((e) => e.index)).toEqual([2, 3, 4]);
});

test("a follow-up rotates the continuation token; the old one is stale (409)", async () => {
  const next = await api("POST", `/hello/v1/session/${sessionId}`, {
    token: tokens().owner,
    body: { continuationToken, message: "Second message" },
  });
  expect(next.status).toBe(200);
  expect(next.json.continuationToken).not.toBe(continuationToken);
  const stale = await api("POST", `/hello/v1/session/${sessionId}`, {
    token: tokens().owner,
    body: { continuationToken, message: "again" },
  });
  expect(stale.status).toBe(409);
  expect(stale.json).toMatchObject({ ok: false, error: "stale_continuation_token" });
  continuationToken = next.json.continuationToken;
  const { events } = await readStream(`/hello/v1/session/${sessionId}/stream`, tokens().owner, untilWaiting(2));
  expect(events.filter((e) => e.type === "message.received")).toHaveLength(2);
});

test("resume hands the session to the owner's new client and makes the old token stale", async () => {
  const other = await api("POST", `/hello/v1/session/${sessionId}/resume`, { token: tokens().other });
  expect(other.status).toBe(403);
  const resumed = await api("POST", `/hello/v1/session/${sessionId}/resume`, { token: tokens().owner });
  expect(resumed.status).toBe(200);
  expect(resumed.json).toMatchObject({ ok: true, sessionId, continuationToken: expect.stringMatching(/^http:/) });
  const old = await api("POST", `/hello/v1/session/${sessionId}`, {
    token: tokens().owner,
    body: { continuationToken, message: "from the old tab" },
  });
  expect(old.json).toMatchObject({ ok: false, error: "stale_continuation_token" });
  continuationToken = resumed.json.continuationToken;
});

test("GET session/:id and the list show the session to its owner", async () => {
  const state = await api("GET", `/hello/v1/session/${sessionId}`, { token: tokens().owner });
  expect(state.json).toMatchObject({
    ok: true,
    session: { id: sessionId, title: "Contract", mode: "chat", status: "waiting" },
  });
  const list = await api("GET", "/hello/v1/session?limit=10&q=Contract", { token: tokens().owner });
  expect(list.json.sessions.map((s: { id: string }) => s.id)).toContain(sessionId);
});

test("another principal gets 403 on every session route and sees none in the list", async () => {
  const other = tokens().other;
  const routes: [string, string, unknown?][] = [
    ["GET", `/hello/v1/session/${sessionId}`],
    ["GET", `/hello/v1/session/${sessionId}/events`],
    ["GET", `/hello/v1/session/${sessionId}/stream?heartbeat=0`],
    ["POST", `/hello/v1/session/${sessionId}`, { continuationToken, message: "hijack" }],
    ["POST", `/hello/v1/session/${sessionId}/stop`],
    ["DELETE", `/hello/v1/session/${sessionId}`],
  ];
  for (const [method, path, body] of routes) {
    const response = await api(method, path, { token: other, body });
    expect(response.status, `${method} ${path}`).toBe(403);
    expect(response.json).toMatchObject({ ok: false, error: "forbidden" });
  }
  const list = await api("GET", "/hello/v1/session", { token: other });
  expect(list.json.sessions.map((s: { id: string }) => s.id)).not.toContain(sessionId);
});

test("authentication: none, unknown, expired, revoked → 401; a token scoped to another agent → 403", async () => {
  expect((await api("GET", "/hello/v1/session")).status).toBe(401);
  expect((await api("GET", "/hello/v1/session", { token: "af_unknown" })).status).toBe(401);
  const expired = await api("GET", "/hello/v1/session", { token: tokens().expired });
  expect(expired.status).toBe(401);
  expect(expired.json.message).toContain("expired");
  const revoked = await api("GET", "/hello/v1/session", { token: tokens().revoked });
  expect([revoked.status, revoked.json.message]).toEqual([401, "this token was revoked"]);
  expect((await api("GET", "/hello/v1/session", { token: tokens().scoped })).status).toBe(403);
  expect((await api("GET", "/other/v1/session", { token: tokens().scoped })).status).toBe(200);
});

test("errors: unknown session 404, malformed JSON 400, body over 1 MiB 413, bad input 400", async () => {
  const owner = tokens().owner;
  expect((await api("GET", "/hello/v1/session/ses_doesnotexist", { token: owner })).json).toMatchObject({
    ok: false,
    error: "not_found",
  });
  expect((await api("GET", "/nope-agent/v1/session", { token: owner })).status).toBe(404);
  const malformed = await api("POST", "/hello/v1/session", { token: owner, rawBody: "{not json" });
  expect([malformed.status, malformed.json.error]).toEqual([400, "invalid_json"]);
  const huge = await api("POST", "/hello/v1/session", {
    token: owner,
    body: { message: "x".repeat(1024 * 1024 + 10) },
  });
  expect([huge.status, huge.json.error]).toEqual([413, "payload_too_large"]);
  const empty = await api("POST", "/hello/v1/session", { token: owner, body: { message: "" } });
  expect([empty.status, empty.json.error]).toEqual([400, "invalid_input"]);
});

test("GET /v1/agents and /<slug>/v1/info describe what the caller may see", async () => {
  const agents = await api("GET", "/v1/agents", { token: tokens().owner });
  const slugs: string[] = agents.json.agents.map((a: { slug: string }) => a.slug);
  // In slug order; other specs deploy agents of their own (a2a.spec.ts) into the same team.
  expect(slugs).toEqual([...slugs].sort());
  expect(slugs).toEqual(expect.arrayContaining(["desk", "hello", "other", "public-demo"]));
  // The desk's defineAgent({ name }) is its display name; hello has none, so its package name.
  expect(agents.json.agents.find((a: { slug: string }) => a.slug === "desk")).toMatchObject({ name: "Support desk" });
  const info = await api("GET", "/hello/v1/info", { token: tokens().owner });
  expect(info.json).toMatchObject({ ok: true, slug: "hello", agent: { name: "hello", tools: [] } });
  expect((await api("GET", "/desk/v1/info", { token: tokens().owner })).json).toMatchObject({
    ok: true,
    slug: "desk",
    agent: { name: "Support desk" },
  });
});

test("workspaceFiles land in the session workspace, next to AGENTS.md; paths outside it are refused", async () => {
  const started = await api("POST", "/hello/v1/session", {
    token: tokens().owner,
    body: { message: "Read my notes", workspaceFiles: { "notes/todo.md": "buy milk" } },
  });
  const id = started.json.sessionId;
  await readStream(`/hello/v1/session/${id}/stream`, tokens().owner, untilWaiting(1));
  const agentsDir = path.join(process.env.AGENTFOLD_E2E_DATA_DIR!, "agents");
  const dataDir = process.env.AGENTFOLD_E2E_DATA_DIR!;
  const workspace = fs
    .readdirSync(agentsDir)
    .map((agent) => workspaceDir(dataDir, agent, id))
    .find((dir) => fs.existsSync(dir))!;
  expect(fs.readFileSync(path.join(workspace, "notes/todo.md"), "utf8")).toBe("buy milk");
  expect(fs.readFileSync(path.join(workspace, "AGENTS.md"), "utf8")).toContain("You are Hello");
  const escaping = await api("POST", "/hello/v1/session", {
    token: tokens().owner,
    body: { message: "x", workspaceFiles: { "../../escape.txt": "x" } },
  });
  expect([escaping.status, escaping.json.error]).toEqual([400, "invalid_input"]);
});

test("an agent that opted in to anonymous access serves callers without credentials; others still answer 401", async () => {
  const started = await api("POST", "/public-demo/v1/session", { body: { message: "Hi without a token" } });
  expect(started.status).toBe(200);
  const state = await api("GET", `/public-demo/v1/session/${started.json.sessionId}`);
  expect(state.json.session.id).toBe(started.json.sessionId);
  // A token holder is someone else: the anonymous session is not theirs.
  expect(
    (await api("GET", `/public-demo/v1/session/${started.json.sessionId}`, { token: tokens().owner })).status,
  ).toBe(403);
  expect((await api("POST", "/hello/v1/session", { body: { message: "x" } })).status).toBe(401);
  expect((await api("GET", "/no-such-agent/v1/session")).status).toBe(401);
});

test("stop ends a running turn as cancelled", async () => {
  const slow = await api("POST", "/hello/v1/session", {
    token: tokens().owner,
    body: { message: "take your time [delay 5s]" },
  });
  const id = slow.json.sessionId;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const stopped = await api("POST", `/hello/v1/session/${id}/stop`, { token: tokens().owner });
  expect(stopped.json).toMatchObject({ ok: true, sessionId: id });
  const { events } = await readStream(`/hello/v1/session/${id}/stream`, tokens().owner, untilWaiting(1));
  expect(events.find((e) => e.type === "turn.failed")?.data).toEqual({
    message: "turn interrupted",
    status: "cancelled",
    code: "cancelled",
  });
});

test("DELETE removes the session: 404 afterwards", async () => {
  const deleted = await api("DELETE", `/hello/v1/session/${sessionId}`, { token: tokens().owner });
  expect(deleted.json).toEqual({ ok: true, sessionId });
  expect((await api("GET", `/hello/v1/session/${sessionId}`, { token: tokens().owner })).status).toBe(404);
  expect((await api("GET", `/hello/v1/session/${sessionId}/events`, { token: tokens().owner })).status).toBe(404);
});
