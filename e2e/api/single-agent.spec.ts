// Single-agent local mode (AGENTFOLD_SINGLE_AGENT): the agent's routes answer unslugged at /v1/*,
// and a direct loopback caller without credentials is the local principal (localDevStrict);
// proxy-forwarded requests are refused. Multi-agent mode answers those paths with 404.
import { expect, test } from "@playwright/test";
import { startExtraWeb, type ExtraWeb } from "../support/extra-web";
import { api, tokens } from "./client";

test.describe.configure({ mode: "serial" });

let single: ExtraWeb;

test.beforeAll(async () => {
  single = await startExtraWeb({ AGENTFOLD_SINGLE_AGENT: "hello" });
});

test.afterAll(() => single?.stop());

test("multi-agent mode has no unslugged session routes", async () => {
  const response = await api("POST", "/v1/session", { token: tokens().owner, body: { message: "hi" } });
  expect(response.status).toBe(404);
  expect(response.json).toMatchObject({ ok: false, error: "not_found" });
});

test("a direct loopback caller with no token runs a session as the local principal", async () => {
  const started = await api("POST", "/v1/session", { base: single.url, body: { message: "Hello from localhost" } });
  expect(started.status, started.text).toBe(200);
  expect(started.json).toMatchObject({
    ok: true,
    sessionId: expect.stringMatching(/^ses_/),
    continuationToken: expect.stringMatching(/^http:/),
  });
  const { sessionId, continuationToken } = started.json;
  const info = await api("GET", "/v1/info", { base: single.url });
  expect(info.json).toMatchObject({ ok: true, slug: "hello" });
  const follow = await api("POST", `/v1/session/${sessionId}`, {
    base: single.url,
    body: { continuationToken, message: "again" },
  });
  expect(follow.json).toMatchObject({ ok: true, admission: "started" });
  const dump = await api("GET", `/v1/session/${sessionId}/events`, { base: single.url });
  expect(dump.status).toBe(200);
  // The same session is the local principal's: a token's principal may not read it.
  const asToken = await api("GET", `/v1/session/${sessionId}`, { base: single.url, token: tokens().owner });
  expect(asToken.status).toBe(403);
});

test("bearer tokens work on the unslugged routes as on the slugged ones", async () => {
  const started = await api("POST", "/v1/session", {
    base: single.url,
    token: tokens().owner,
    body: { message: "with a token" },
  });
  expect(started.status).toBe(200);
  const viaSlug = await api("GET", `/hello/v1/session/${started.json.sessionId}`, {
    base: single.url,
    token: tokens().owner,
  });
  expect(viaSlug.json).toMatchObject({ ok: true, session: { id: started.json.sessionId } });
});

for (const [name, value] of [
  ["x-forwarded-for", "203.0.113.9"],
  ["x-forwarded-for", "203.0.113.9, 127.0.0.1"],
  ["forwarded", "for=203.0.113.9"],
  ["x-real-ip", "203.0.113.9"],
  ["origin", "https://evil.example"],
] as const) {
  test(`a request through a proxy or from a web page (${name}: ${value}) is refused without a token`, async () => {
    const response = await api("POST", "/v1/session", {
      base: single.url,
      headers: { [name]: value },
      body: { message: "via a tunnel" },
    });
    expect(response.status).toBe(401);
    expect(response.json).toMatchObject({
      ok: false,
      error: "unauthorized",
      message: expect.stringContaining("loopback"),
    });
  });
}

test("other agents keep their own rules in single mode: no local principal there", async () => {
  const response = await api("POST", "/other/v1/session", { base: single.url, body: { message: "hi" } });
  expect(response.status).toBe(401);
});
