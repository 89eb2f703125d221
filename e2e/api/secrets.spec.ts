// Agent secrets over HTTP on examples/support-desk (it declares HELPDESK_TOKEN and
// HELPDESK_WEBHOOK_SECRET, which channels.spec.ts sets and removes again): set, rotate,
// list and remove for callers who may deploy; 403 for others, 400 for bad input, 404 for an
// unknown agent; no answer carries a value.
import { expect, test } from "@playwright/test";
import { api, tokens } from "./client";

test.describe.configure({ mode: "serial" });

test("set, rotate, list and remove", async () => {
  const before = await api("GET", "/desk/v1/secrets", { token: tokens().owner });
  const declared = ["HELPDESK_TOKEN", "HELPDESK_WEBHOOK_SECRET"];
  expect(before.json).toMatchObject({ ok: true, declared, missing: declared });
  const set = await api("PUT", "/desk/v1/secrets/HELPDESK_TOKEN", {
    token: tokens().owner,
    body: { value: "contract-value-1" },
  });
  expect(set.json).toMatchObject({ ok: true, name: "HELPDESK_TOKEN", isNew: true, updatedAt: expect.any(String) });
  const rotated = await api("PUT", "/desk/v1/secrets/HELPDESK_TOKEN", {
    token: tokens().owner,
    body: { value: "contract-value-2" },
  });
  expect(rotated.json).toMatchObject({ ok: true, isNew: false });
  const listed = await api("GET", "/desk/v1/secrets", { token: tokens().owner });
  expect(listed.json).toMatchObject({
    secrets: [{ name: "HELPDESK_TOKEN", updatedBy: "token owner", isDeclared: true }],
    missing: ["HELPDESK_WEBHOOK_SECRET"],
  });
  for (const response of [set, rotated, listed]) expect(response.text).not.toContain("contract-value");
  expect((await api("DELETE", "/desk/v1/secrets/HELPDESK_TOKEN", { token: tokens().owner })).json).toEqual({
    ok: true,
    name: "HELPDESK_TOKEN",
  });
  expect((await api("DELETE", "/desk/v1/secrets/HELPDESK_TOKEN", { token: tokens().owner })).status).toBe(404);
});

test("refuses callers who may not deploy, bad input and unknown agents", async () => {
  expect((await api("GET", "/desk/v1/secrets")).status).toBe(401);
  expect((await api("GET", "/desk/v1/secrets", { token: tokens().scoped })).status).toBe(403);
  expect(
    (await api("PUT", "/other/v1/secrets/X_KEY", { token: tokens().scoped, body: { value: "v-value" } })).status,
  ).toBe(403);
  expect(
    (await api("PUT", "/desk/v1/secrets/not-a-name", { token: tokens().owner, body: { value: "v-value" } })).status,
  ).toBe(400);
  expect((await api("PUT", "/desk/v1/secrets/X_KEY", { token: tokens().owner, body: { value: "" } })).status).toBe(400);
  expect((await api("PUT", "/desk/v1/secrets/X_KEY", { token: tokens().owner, rawBody: "{" })).status).toBe(400);
  expect((await api("GET", "/no-such-agent/v1/secrets", { token: tokens().owner })).status).toBe(404);
});
