// The A2A example (examples/a2a-agent, channel `a2a`) on the real stack, deployed here as `a2a`:
// its agent card names the JSON-RPC endpoint; message/send answers a Task that tasks/get returns
// again from host.kv; one contextId is one session; JSON-RPC errors carry the protocol's codes;
// /invoke waits for the reply; the auth chain admits the A2A_TOKEN secret and platform tokens, and
// a task is shown only to the caller that created it.
import { deployFolder } from "../support/stack-cli";
import crypto from "node:crypto";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { projectRoot } from "../../src/cli/start/project";
import { api, baseUrl, tokens } from "./client";

test.describe.configure({ mode: "serial" });

const base = "/a2a/v1/channels/a2a";
const secret = "a2a-shared-secret-1";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await deployFolder({ team: "e2e", slug: "a2a" }, path.join(projectRoot, "examples", "a2a-agent"));
  const set = await api("PUT", "/a2a/v1/secrets/A2A_TOKEN", { token: tokens().owner, body: { value: secret } });
  expect(set.status).toBe(200);
});

let lastId = 0;

async function rpc(
  method: string,
  params: unknown,
  caller: { token: string; headers?: Record<string, string> } = { token: tokens().owner },
) {
  const id = ++lastId;
  const answer = await api("POST", base, { ...caller, body: { jsonrpc: "2.0", id, method, params } });
  expect(answer.status).toBe(200);
  expect(answer.json).toMatchObject({ jsonrpc: "2.0", id });
  return answer.json;
}

function message(text: string, contextId?: string) {
  const parts = [{ kind: "text", text }];
  return { kind: "message", messageId: crypto.randomUUID(), role: "user", parts, ...(contextId ? { contextId } : {}) };
}

test("the agent card names the channel's JSON-RPC endpoint", async () => {
  const card = await api("GET", `${base}/.well-known/agent-card.json`, { token: tokens().owner });
  expect(card.status).toBe(200);
  expect(card.json).toMatchObject({
    protocolVersion: "0.3.0",
    name: "A2A agent",
    url: `${baseUrl()}${base}`,
    preferredTransport: "JSONRPC",
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "conversation", name: "Conversation" }],
    securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
  });
});

test("message/send answers the completed task with the reply; tasks/get returns the same task", async () => {
  const sent = await rpc("message/send", { message: message("[say: Four.] What is two plus two?") });
  const task = sent.result;
  expect(task).toMatchObject({
    kind: "task",
    id: expect.any(String),
    contextId: expect.any(String),
    status: { state: "completed", message: { role: "agent", parts: [{ kind: "text", text: "Four." }] } },
    artifacts: [{ parts: [{ kind: "text", text: "Four." }] }],
    metadata: { sessionId: expect.stringMatching(/^ses_/) },
  });
  expect(task.history.map((entry: { role: string }) => entry.role)).toEqual(["user", "agent"]);
  expect((await rpc("tasks/get", { id: task.id })).result).toEqual(task);
  expect((await rpc("tasks/get", { id: task.id, historyLength: 1 })).result.history).toEqual([task.history[1]]);
});

test("one contextId is one session: a second message continues it", async () => {
  const contextId = `ctx-${crypto.randomUUID()}`;
  const first = (await rpc("message/send", { message: message("[say: first]", contextId) })).result;
  const second = (await rpc("message/send", { message: message("[say: second]", contextId) })).result;
  expect(first.contextId).toBe(contextId);
  expect(second.contextId).toBe(contextId);
  expect(second.id).not.toBe(first.id);
  expect(second.metadata.sessionId).toBe(first.metadata.sessionId);
  expect(second.artifacts[0].parts[0].text).toBe("second");
  const other = (await rpc("message/send", { message: message("[say: elsewhere]") })).result;
  expect(other.contextId).not.toBe(contextId);
  expect(other.metadata.sessionId).not.toBe(first.metadata.sessionId);
});

test("a non-blocking send answers the working task at once; tasks/get sees it complete", async () => {
  const params = { message: message("[delay 2s] [say: later]"), configuration: { blocking: false } };
  const task = (await rpc("message/send", params)).result;
  expect(task.status.state).toBe("working");
  await expect
    .poll(async () => (await rpc("tasks/get", { id: task.id })).result.status.state, { timeout: 20_000 })
    .toBe("completed");
  expect((await rpc("tasks/get", { id: task.id })).result.artifacts[0].parts[0].text).toBe("later");
});

test("a failed turn is a failed task with the reason", async () => {
  const task = (await rpc("message/send", { message: message("[fail: out of paper]") })).result;
  expect(task.status).toMatchObject({ state: "failed", message: { parts: [{ kind: "text", text: "out of paper" }] } });
  expect(task.artifacts).toEqual([]);
});

test("JSON-RPC errors carry the protocol's codes", async () => {
  expect((await rpc("tasks/cancel", { id: "x" })).error.code).toBe(-32601);
  expect((await rpc("tasks/get", { id: crypto.randomUUID() })).error.code).toBe(-32001);
  expect((await rpc("tasks/get", {})).error.code).toBe(-32602);
  expect((await rpc("message/send", { message: { role: "user", parts: [] } })).error.code).toBe(-32602);
  const file = { ...message("see the file"), parts: [{ kind: "file", file: { uri: "https://example.com/a.txt" } }] };
  expect((await rpc("message/send", { message: file })).error.code).toBe(-32005);
  const notRpc = await api("POST", base, { token: tokens().owner, body: { id: 7, method: "tasks/get" } });
  expect(notRpc.json).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32600 } });
  const notJson = await api("POST", base, { token: tokens().owner, rawBody: "{not json" });
  expect(notJson.json).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
});

test("/invoke waits for the reply", async () => {
  const invoked = await api("POST", `${base}/invoke`, { token: tokens().owner, body: { message: "[say: Done.]" } });
  expect(invoked.status).toBe(200);
  expect(invoked.json).toMatchObject({
    ok: true,
    status: "finished",
    result: "Done.",
    sessionId: expect.stringMatching(/^ses_/),
    taskId: expect.any(String),
  });
  const stored = (await rpc("tasks/get", { id: invoked.json.taskId })).result;
  expect(stored).toMatchObject({ status: { state: "completed" }, metadata: { sessionId: invoked.json.sessionId } });
});

test("the auth chain: loopback, the secret or a platform token; a proxied caller without one is a 401", async () => {
  const card = `${base}/.well-known/agent-card.json`;
  // localDevStrict() admits a direct loopback caller; through a proxy it admits nobody.
  expect((await api("GET", card)).status).toBe(200);
  const proxied = { "x-forwarded-for": "203.0.113.7" };
  expect((await api("GET", card, { headers: proxied })).status).toBe(401);
  expect((await api("GET", card, { headers: proxied, token: "not-the-secret" })).status).toBe(401);
  expect((await api("GET", card, { headers: proxied, token: secret })).status).toBe(200);
  expect((await api("GET", card, { headers: proxied, token: tokens().owner })).status).toBe(200);
  const bySecret = await api("POST", `${base}/invoke`, {
    headers: proxied,
    token: secret,
    body: { message: "[say: hi]" },
  });
  expect(bySecret.json).toMatchObject({ ok: true, result: "hi" });
  // A task is its creator's: the owner token's caller cannot read the secret caller's task.
  expect((await rpc("tasks/get", { id: bySecret.json.taskId })).error.code).toBe(-32001);
  const asSecret = { token: secret, headers: proxied };
  expect((await rpc("tasks/get", { id: bySecret.json.taskId }, asSecret)).result.id).toBe(bySecret.json.taskId);
  // Nor can the secret's caller join a context whose session the owner token's caller holds.
  const contextId = `ctx-${crypto.randomUUID()}`;
  expect((await rpc("message/send", { message: message("[say: mine]", contextId) })).result.status.state).toBe(
    "completed",
  );
  const intruder = (await rpc("message/send", { message: message("[say: also mine]", contextId) }, asSecret)).result;
  expect(intruder.status).toMatchObject({
    state: "failed",
    message: { parts: [{ text: "this session belongs to someone else" }] },
  });
});
