// A channel's own HTTP routes on the real stack (examples/support-desk, channel `webhook`): the
// handler runs in the agent's sandbox and its Response comes back; the body schema answers 400
// with issues; the auth chain admits the channel's secret or a platform token and nobody else;
// one conversation key is one session; a route waits for the reply with waitForCompletion.
import { expect, test } from "@playwright/test";
import { api, tokens } from "./client";

test.describe.configure({ mode: "serial" });

const tickets = "/desk/v1/channels/webhook/tickets";
const secret = "webhook-shared-secret-1";

test.beforeAll(async () => {
  const set = await api("PUT", "/desk/v1/secrets/HELPDESK_WEBHOOK_SECRET", {
    token: tokens().owner,
    body: { value: secret },
  });
  expect(set.status).toBe(200);
});

test.afterAll(async () => {
  await api("DELETE", "/desk/v1/secrets/HELPDESK_WEBHOOK_SECRET", { token: tokens().owner });
});

test("a valid body reaches the handler in the sandbox; its Response comes back", async () => {
  const opened = await api("POST", tickets, { token: secret, body: { ticketId: "T-1", text: "Where is A-1002?" } });
  expect(opened.status).toBe(202);
  expect(opened.json).toMatchObject({ ok: true, ticketId: "T-1", sessionId: expect.stringMatching(/^ses_/) });
});

test("an invalid body is a 400 with the schema's issues; no credential is a 401", async () => {
  const invalid = await api("POST", tickets, { token: secret, body: { ticketId: "T-2" } });
  expect(invalid.status).toBe(400);
  expect(invalid.json).toMatchObject({ ok: false, error: "invalid_request", issues: [{ path: ["body", "text"] }] });
  const anonymous = await api("POST", tickets, { body: { ticketId: "T-2", text: "hi" } });
  expect(anonymous.status).toBe(401);
  const wrong = await api("POST", tickets, { token: "not-the-secret", body: { ticketId: "T-2", text: "hi" } });
  expect(wrong.status).toBe(401);
});

test("a platform token with channels:invoke is admitted too; unknown routes and methods are told apart", async () => {
  const byToken = await api("POST", tickets, { token: tokens().owner, body: { ticketId: "T-3", text: "hello" } });
  expect(byToken.status).toBe(202);
  expect((await api("GET", tickets, { token: secret })).status).toBe(405);
  expect((await api("POST", "/desk/v1/channels/webhook/nothing", { token: secret, body: {} })).status).toBe(404);
  expect((await api("POST", "/desk/v1/channels/nope/tickets", { token: secret, body: {} })).status).toBe(404);
});

test("one ticket is one session: the second send follows up in it", async () => {
  const first = await api("POST", tickets, { token: secret, body: { ticketId: "T-4", text: "first message" } });
  const second = await api("POST", tickets, { token: secret, body: { ticketId: "T-4", text: "second message" } });
  expect(second.json.sessionId).toBe(first.json.sessionId);
  const other = await api("POST", tickets, { token: secret, body: { ticketId: "T-5", text: "another ticket" } });
  expect(other.json.sessionId).not.toBe(first.json.sessionId);
});

test("a route waits for the agent's reply with waitForCompletion", async () => {
  const asked = await api("POST", "/desk/v1/channels/webhook/tickets/T-6/ask", {
    token: secret,
    body: { text: "[say: Your order ships today.]" },
  });
  expect(asked.status).toBe(200);
  expect(asked.json).toMatchObject({ ok: true, status: "finished", result: "Your order ships today." });
});

test("a route decides with the agent's model, without a turn (decide from /extensions/jev)", async () => {
  const triaged = await api("POST", "/desk/v1/channels/webhook/tickets/T-7/triage", {
    token: secret,
    body: { text: 'The site is down [say: {"answer": "high"}]' },
  });
  expect(triaged.status).toBe(200);
  expect(triaged.json).toEqual({ ok: true, ticketId: "T-7", urgency: "high" });
});
