// Schedules on a real engine with a clock the test moves: each due time fires one task session,
// missed due times fold into one late firing, pausing skips, a new version replaces the
// schedules, and a schedule can be fired by hand.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { waitFor } from "@/cli/start/wait";
import type { AgentRef } from "@/server/sessions/start-session";
import { followUpSession } from "@/server/sessions/follow-up-session";
import { startTurnHarness, type Harness } from "@/testing/turn-harness";
import { scheduleAuth } from "./run-schedules";
import { setSchedulePaused } from "./set-schedule-paused";

let now = Date.parse("2026-11-30T09:58:30Z");
let h: Harness;
let agent: AgentRef;

const files = {
  "bot/instructions.md": "You run scheduled chores.",
  "bot/tools/lookup.ts":
    'import { defineTool } from "agentfold/tools";\nexport default defineTool({ description: "Looks up an order", effect: "read", async execute(input) { return { orderId: input.orderId, status: "shipped" }; } });\n',
  "bot/schedules/sweep.ts": `import { defineSchedule } from "agentfold/schedules";
export default defineSchedule({ cron: "0 0 1 1 *", async run({ callTool, receive, appAuth, waitUntil }) {
  const found = await callTool("lookup", { orderId: "S1" });
  waitUntil(receive("http", { message: "Sweep found: " + found.content[0].text, auth: appAuth }));
} });
`,
  "bot/schedules/digest.md": '---\ncron: "*/5 * * * *"\n---\nSummarise the day.',
  "bot/schedules/hourly.ts":
    'import { defineSchedule } from "agentfold/schedules";\nexport default defineSchedule({ cron: "0 * * * *", markdown: "Run the hourly check." });\n',
};

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl"), clock: () => new Date(now) });
  agent = await h.deploy("chores", files);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const firings = () =>
  h.db.scheduleFiring
    .findMany({
      where: { agentId: agent.id },
      orderBy: { id: "asc" },
      select: { name: true, dueAt: true, missed: true, manual: true, sessionId: true },
    })
    .then((rows) => rows.map((row) => ({ ...row, sessionId: row.sessionId ?? "" })));

/** Moves the clock and lets the scheduler look (as its timer would), then waits for `count` firings. */
async function tickAt(iso: string, count: number) {
  now = Date.parse(iso);
  await h.runtime.startScheduler(agent.id);
  await waitFor(`${count} firings`, async () => (await firings()).length >= count, { timeoutMs: 20_000 });
  await new Promise((resolve) => setTimeout(resolve, 300));
  return firings();
}

describe("schedules", () => {
  it("fires nothing for due times before it first saw the schedule", async () => {
    expect(await tickAt("2026-11-30T09:58:30Z", 0)).toEqual([]);
    // Nothing to wait for in firings: wait for the tick to have seen the three schedules.
    await waitFor(
      "the first tick",
      async () => (await h.db.scheduleState.count({ where: { agentId: agent.id } })) === 3,
      { timeoutMs: 10_000 },
    );
    expect(await firings()).toEqual([]);
  });

  it("starts one task session per due schedule; it completes and refuses follow-ups", async () => {
    const fired = await tickAt("2026-11-30T10:00:10Z", 2);
    expect(fired.map((f) => [f.name, f.dueAt.toISOString(), f.missed])).toEqual(
      expect.arrayContaining([
        ["digest", "2026-11-30T10:00:00.000Z", 0],
        ["hourly", "2026-11-30T10:00:00.000Z", 0],
      ]),
    );
    const digest = fired.find((f) => f.name === "digest")!;
    const log = await h.eventsUntil(digest.sessionId, (l) => l.some((e) => e.type === "session.completed"));
    expect(log[0]).toMatchObject({
      type: "session.started",
      data: { channelId: "schedule", mode: "task", title: "Schedule: digest" },
    });
    expect(log.find((e) => e.type === "message.received")?.data).toMatchObject({ text: "Summarise the day." });
    const session = await h.db.session.findUniqueOrThrow({ where: { id: digest.sessionId } });
    expect({ kind: session.ownerKind, id: session.ownerId }).toEqual({
      kind: "app",
      id: scheduleAuth(agent.slug, "digest").id,
    });
    await expect(
      followUpSession({
        db: h.db,
        runtime: h.runtime,
        agentId: agent.id,
        sessionId: digest.sessionId,
        principal: scheduleAuth(agent.slug, "digest"),
        body: { continuationToken: "http:x", message: "more" },
      }),
    ).rejects.toMatchObject({ code: "task_session", status: 409 });
  });

  it("fires once per due time however many ticks race, with two workers", async () => {
    await h.startExtraWorker();
    await Promise.all([
      h.runtime.startScheduler(agent.id),
      h.runtime.startScheduler(agent.id),
      h.runtime.startScheduler(agent.id),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await firings()).toHaveLength(2);
  });

  it("folds due times missed while down into one late firing", async () => {
    const fired = await tickAt("2026-11-30T10:31:00Z", 3);
    expect(fired.at(-1)).toMatchObject({ name: "digest", missed: 5 });
    expect(fired.at(-1)!.dueAt.toISOString()).toBe("2026-11-30T10:30:00.000Z");
    const log = await h.eventsUntil(fired.at(-1)!.sessionId, (l) => l.some((e) => e.type === "session.completed"));
    expect((log[0]!.data as { title: string }).title).toContain("late: 5 earlier due times missed");
  });

  it("a paused schedule skips its due times, and resuming fires only what comes next", async () => {
    await setSchedulePaused({ db: h.db, agentId: agent.id, name: "digest", paused: true });
    await tickAt("2026-11-30T10:40:10Z", 3);
    expect(await firings()).toHaveLength(3);
    await setSchedulePaused({ db: h.db, agentId: agent.id, name: "digest", paused: false });
    const fired = await tickAt("2026-11-30T10:45:10Z", 4);
    expect(fired.at(-1)).toMatchObject({ name: "digest", missed: 0 });
    expect(fired.at(-1)!.dueAt.toISOString()).toBe("2026-11-30T10:45:00.000Z");
  });

  it("fires a schedule by hand, and says so for one that does not exist", async () => {
    const fired = await h.runtime.fireSchedule(agent.id, "hourly");
    expect(fired).toMatchObject({ ok: true, sessionId: expect.stringMatching(/^ses_/) });
    const log = await h.eventsUntil((fired as { sessionId: string }).sessionId, (l) =>
      l.some((e) => e.type === "session.completed"),
    );
    expect((log[0]!.data as { title: string }).title).toBe("Run by hand: hourly");
    expect(await h.runtime.fireSchedule(agent.id, "nope")).toEqual({
      ok: false,
      error: "not_found",
      message: "no schedule named nope",
    });
  });

  it("runs a schedule's run(): it calls a tool and hands work to the HTTP channel with receive", async () => {
    expect(await h.runtime.fireSchedule(agent.id, "sweep")).toEqual({ ok: true, ran: true });
    const session = await h.db.session.findFirstOrThrow({
      where: { agentId: agent.id, channelId: "http", ownerId: scheduleAuth(agent.slug, "sweep").id },
    });
    expect(session.mode).toBe("chat");
    const log = await h.eventsUntil(session.id, (l) => l.some((e) => e.type === "session.waiting"));
    expect(log.find((e) => e.type === "message.received")?.data).toMatchObject({
      text: 'Sweep found: {"orderId":"S1","status":"shipped"}',
    });
  });

  it("a new active version replaces the schedules", async () => {
    const { "bot/schedules/digest.md": _, ...withoutDigest } = files;
    await h.deploy("chores", {
      ...withoutDigest,
      "bot/schedules/quarterly.md": '---\ncron: "*/15 * * * *"\n---\nQuarter-hour report.',
    });
    const before = (await firings()).length;
    // digest is gone; quarterly is new, so it starts counting now and first fires at 11:15.
    const atEleven = await tickAt("2026-11-30T11:00:10Z", before + 1);
    expect(atEleven.slice(before).map((f) => f.name)).toEqual(["hourly"]);
    const later = await tickAt("2026-11-30T11:15:10Z", before + 2);
    expect(later.slice(before).map((f) => f.name)).toEqual(["hourly", "quarterly"]);
  });
});
