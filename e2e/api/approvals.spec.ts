// POST /<slug>/v1/session/:id/approvals/:callId over HTTP, on examples/support-desk (its
// issue_refund tool needs approval): the parked call, who may decide, 404 / 409, and the tool
// result with approvedBy on the stream.
import { expect, test } from "@playwright/test";
import { api, readStream, tokens } from "./client";

test.describe.configure({ mode: "serial" });

test("a parked refund is approved over HTTP and the result streams in with approvedBy", async () => {
  test.setTimeout(60_000);
  const started = await api("POST", "/desk/v1/session", {
    token: tokens().owner,
    body: { message: '[call issue_refund {"orderId":"A-1001","reason":"arrived broken"}]' },
  });
  expect(started.status).toBe(200);
  const { sessionId } = started.json;
  const stream = `/desk/v1/session/${sessionId}/stream?heartbeat=0`;
  const parked = await readStream(stream, tokens().owner, (event) => event.type === "action.approval_requested");
  const request = parked.events.at(-1)!;
  expect(request).toMatchObject({
    type: "action.approval_requested",
    data: { toolName: "issue_refund", args: { orderId: "A-1001", reason: "arrived broken" } },
  });
  const callId = (request.data as { callId: string }).callId;
  const route = `/desk/v1/session/${sessionId}/approvals/${callId}`;
  const state = await api("GET", `/desk/v1/session/${sessionId}`, { token: tokens().owner });
  expect(state.json.pendingApprovals).toEqual([
    {
      callId,
      toolName: "issue_refund",
      args: { orderId: "A-1001", reason: "arrived broken" },
      requestedAt: expect.any(String),
      expiresAt: expect.any(String),
    },
  ]);

  expect((await api("POST", route, { token: tokens().scoped, body: { decision: "approve" } })).status).toBe(403);
  expect((await api("POST", route, { token: tokens().owner, body: { decision: "maybe" } })).status).toBe(400);
  expect(
    (
      await api("POST", `/desk/v1/session/${sessionId}/approvals/call_unknown`, {
        token: tokens().owner,
        body: { decision: "approve" },
      })
    ).status,
  ).toBe(404);
  const approved = await api("POST", route, { token: tokens().owner, body: { decision: "approve" } });
  expect(approved.status).toBe(200);
  expect(approved.json).toEqual({ ok: true, sessionId, callId, decision: "approved", delivered: true });
  const again = await api("POST", route, { token: tokens().owner, body: { decision: "deny" } });
  expect(again.status).toBe(409);
  expect(again.json).toMatchObject({ ok: false, error: "already_resolved" });

  const done = await readStream(stream, tokens().owner, (event) => event.type === "session.waiting");
  expect((await api("GET", `/desk/v1/session/${sessionId}`, { token: tokens().owner })).json.pendingApprovals).toEqual(
    [],
  );
  const result = done.events.find((event) => event.type === "action.result");
  expect(result?.data).toMatchObject({
    callId,
    isError: false,
    // Refunds are kept in the agent's kv: every approved refund of A-1001 adds one, in any test.
    output: { refunded: "A-1001", approvedBy: { kind: "app" }, refundsOfOrder: expect.any(Number) },
  });
  const resolved = done.events.find((event) => event.type === "action.approval_resolved");
  expect(resolved?.data).toMatchObject({ callId, decision: "approved", approvedBy: { kind: "app" } });
});
