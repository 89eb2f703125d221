// Direct tool calls over HTTP (spec §5.5) on examples/support-desk: POST /<slug>/v1/tools/:name
// and the session-bound form, with validation errors in the wire format.
import { expect, test } from "@playwright/test";
import { api, readStream, tokens } from "./client";

test("a direct call answers with the tool's output; bad input is 400 with the validation message", async () => {
  const found = await api("POST", "/desk/v1/tools/lookup_order", {
    token: tokens().owner,
    body: { input: { orderId: "A-1002" } },
  });
  expect(found.status).toBe(200);
  expect(found.json).toMatchObject({ ok: true, isError: false, output: { found: true, order: { id: "A-1002" } } });
  const invalid = await api("POST", "/desk/v1/tools/lookup_order", {
    token: tokens().owner,
    body: { input: { orderId: 5 } },
  });
  expect(invalid.status).toBe(400);
  expect(invalid.json).toMatchObject({
    ok: false,
    error: "invalid_input",
    message: expect.stringContaining("orderId"),
  });
  expect(
    (await api("POST", "/desk/v1/tools/no_such_tool", { token: tokens().owner, body: { input: {} } })).status,
  ).toBe(404);
  expect((await api("POST", "/desk/v1/tools/lookup_order", { body: { input: { orderId: "A-1002" } } })).status).toBe(
    401,
  );
});

test("session-bound: a write while a turn runs is 409 session_busy, a read runs alongside", async () => {
  const started = await api("POST", "/desk/v1/session", {
    token: tokens().owner,
    body: { message: "Working on it [delay 3s]" },
  });
  const { sessionId } = started.json;
  await readStream(
    `/desk/v1/session/${sessionId}/stream?heartbeat=0`,
    tokens().owner,
    (event) => event.type === "step.started",
  );
  const write = await api("POST", `/desk/v1/session/${sessionId}/tools/issue_refund`, {
    token: tokens().owner,
    body: { input: { orderId: "A-1002", reason: "late" } },
  });
  expect(write.status).toBe(409);
  expect(write.json).toMatchObject({ ok: false, error: "session_busy" });
  const read = await api("POST", `/desk/v1/session/${sessionId}/tools/lookup_order`, {
    token: tokens().owner,
    body: { input: { orderId: "A-1001" } },
  });
  expect(read.status).toBe(200);
  const other = await api("POST", `/desk/v1/session/${sessionId}/tools/lookup_order`, {
    token: tokens().other,
    body: { input: { orderId: "A-1001" } },
  });
  expect(other.status).toBe(403);
});
