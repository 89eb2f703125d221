// Artifacts over HTTP on examples/support-desk (its registry has the kind `refund`, agentTool on):
// the model's tag_artifact records one, the list route filters and pages, one record answers as
// JSON or as a file, the stream delivers new tags live, and a token that may not read the agent
// is refused.
import { expect, test } from "@playwright/test";
import { parseNdjson } from "../../src/server/http/ndjson";
import { api, baseUrl, readStream, tokens } from "./client";

test.describe.configure({ mode: "serial" });

async function tag(key: string) {
  const data = JSON.stringify({ kind: "refund", key, title: `Refund ${key}`, data: { orderId: key, amount: 12 } });
  const started = await api("POST", "/desk/v1/session", {
    token: tokens().owner,
    body: { message: `[call tag_artifact ${data}] [reason off]` },
  });
  expect(started.status).toBe(200);
  const sessionId: string = started.json.sessionId;
  await readStream(
    `/desk/v1/session/${sessionId}/stream`,
    tokens().owner,
    (event) => event.type === "turn.completed" || event.type === "turn.failed",
  );
  return sessionId;
}

test("the model's tag is listed, filtered by kind and session, and paged", async () => {
  const first = await tag("A-9001");
  await tag("A-9002");
  await tag("A-9003");
  const all = await api("GET", "/desk/v1/artifacts?kind=refund&limit=2", { token: tokens().owner });
  expect(all.status).toBe(200);
  expect(all.json.artifacts.map((a: { key: string }) => a.key)).toEqual(["A-9003", "A-9002"]);
  expect(all.json.nextCursor).toEqual(expect.any(String));
  const next = await api("GET", `/desk/v1/artifacts?kind=refund&limit=2&cursor=${all.json.nextCursor}`, {
    token: tokens().owner,
  });
  expect(next.json.artifacts[0]).toMatchObject({ key: "A-9001", kind: "refund", title: "Refund A-9001" });
  const bySession = await api("GET", `/desk/v1/artifacts?session=${first}`, { token: tokens().owner });
  expect(bySession.json.artifacts).toEqual([
    expect.objectContaining({ key: "A-9001", sessionId: first, data: { orderId: "A-9001", amount: 12 } }),
  ]);
});

test("one record as JSON or as a file; unknown ones 404; other agents' tokens 403", async () => {
  const one = await api("GET", "/desk/v1/artifacts/refund/A-9001", { token: tokens().owner });
  expect(one.json).toMatchObject({ ok: true, artifact: { kind: "refund", key: "A-9001" } });
  const file = await api("GET", "/desk/v1/artifacts/refund/A-9001?download=1", { token: tokens().owner });
  expect(file.headers.get("content-disposition")).toBe('attachment; filename="refund-A-9001.json"');
  expect(JSON.parse(file.text)).toMatchObject({ kind: "refund", key: "A-9001" });
  expect((await api("GET", "/desk/v1/artifacts/refund/nope", { token: tokens().owner })).status).toBe(404);
  expect((await api("GET", "/desk/v1/artifacts", { token: tokens().scoped })).status).toBe(403);
  expect((await api("GET", "/desk/v1/artifacts")).status).toBe(401);
});

test("the stream delivers a new tag live; the list searches key and title", async () => {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl()}/desk/v1/artifacts/stream?kind=refund`, {
    headers: { authorization: `Bearer ${tokens().owner}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/x-ndjson");
  const lines = parseNdjson(response.body!);
  const sessionId = await tag("A-9100");
  const first = (await lines.next()).value as { type: string; cursor: string; artifact: { key: string } };
  controller.abort();
  expect(first).toMatchObject({ type: "artifact", artifact: { key: "A-9100", sessionId } });
  const found = await api("GET", "/desk/v1/artifacts?q=refund%20a-91", { token: tokens().owner });
  expect(found.json.artifacts.map((a: { key: string }) => a.key)).toEqual(["A-9100"]);
  const streamOfOthers = await fetch(`${baseUrl()}/desk/v1/artifacts/stream`, {
    headers: { authorization: `Bearer ${tokens().scoped}` },
  });
  expect(streamOfOthers.status).toBe(403);
});
