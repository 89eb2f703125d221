// Schedules over HTTP on examples/support-desk: the list with next runs, hand dispatch (for
// callers who may deploy), pause and resume.
import { expect, test } from "@playwright/test";
import { api, tokens } from "./client";

test.describe.configure({ mode: "serial" });

test("lists the schedules with their next run", async () => {
  const listed = await api("GET", "/desk/v1/schedules", { token: tokens().owner });
  expect(listed.status).toBe(200);
  const digest = listed.json.schedules.find((s: { name: string }) => s.name === "daily-digest");
  expect(digest).toMatchObject({
    cron: "0 8 * * 1-5",
    mode: "markdown",
    paused: false,
    nextRunAt: expect.stringMatching(/T08:00:00.000Z$/),
  });
  expect(listed.json.schedules.find((s: { name: string }) => s.name === "stale-orders")).toMatchObject({
    mode: "run",
    nextRunAt: expect.stringMatching(/:(00|30):00.000Z$/),
  });
});

test("hand dispatch starts a task session; callers who may not deploy are refused", async () => {
  expect((await api("POST", "/desk/v1/dev/schedules/daily-digest", { token: tokens().scoped })).status).toBe(403);
  const fired = await api("POST", "/desk/v1/dev/schedules/daily-digest", { token: tokens().owner });
  expect(fired.status).toBe(200);
  expect(fired.json).toEqual({ ok: true, sessionId: expect.stringMatching(/^ses_/) });
  expect((await api("POST", "/desk/v1/dev/schedules/no-such-schedule", { token: tokens().owner })).status).toBe(404);
  const listed = await api("GET", "/desk/v1/schedules", { token: tokens().owner });
  expect(listed.json.schedules.find((s: { name: string }) => s.name === "daily-digest").lastRun).toMatchObject({
    sessionId: fired.json.sessionId,
    manual: true,
  });
});

test("pause and resume", async () => {
  const paused = await api("PATCH", "/desk/v1/schedules/daily-digest", {
    token: tokens().owner,
    body: { paused: true },
  });
  expect(paused.json).toEqual({ ok: true, name: "daily-digest", paused: true });
  let listed = await api("GET", "/desk/v1/schedules", { token: tokens().owner });
  expect(listed.json.schedules.find((s: { name: string }) => s.name === "daily-digest")).toMatchObject({
    paused: true,
    nextRunAt: null,
  });
  await api("PATCH", "/desk/v1/schedules/daily-digest", { token: tokens().owner, body: { paused: false } });
  listed = await api("GET", "/desk/v1/schedules", { token: tokens().owner });
  expect(listed.json.schedules.find((s: { name: string }) => s.name === "daily-digest").paused).toBe(false);
});
