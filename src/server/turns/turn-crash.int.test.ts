// kill -9 of the worker (or a restart of Restate) in the middle of a turn: after the restart the
// turn completes from the journal. A write tool never runs twice (counted in files, outside the
// database): one that completed is not run again, one cut off fails with why; a model step cut
// off mid-stream runs again as a marked attempt; the log stays gapless with no duplicated events.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { waitFor } from "@/cli/start/wait";
import { agentDir } from "@/server/agents/storage";
import type { AgentRef } from "@/server/sessions/start-session";
import { decideApproval } from "@/server/approvals/decide-approval";
import { approvalAgent, engineAgent } from "@/testing/engine-agents";
import { ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

let h: Harness;
let agent: AgentRef;
let approvals: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl"), workerProcess: true });
  agent = await h.deploy("crash", engineAgent);
  approvals = await h.deploy("crash-approvals", approvalAgent);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const count = (name: string) => {
  const file = path.join(agentDir(h.dataDir, agent.id), "state", name);
  return fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8")) : 0;
};

/**
 * Starts a turn that calls sleepy twice; returns once the first call completed and the second
 * runs. As a follow-up, the turn is the session's second: it starts when Restate delivers it
 * (a new session's first turn starts from its commit, src/server/worker/eager-turns.ts).
 */
async function midSecondCall(firstMs: number, secondMs: number, options: { asFollowUp?: boolean } = {}) {
  const message = `[call sleepy {"ms":${firstMs}}] [call sleepy {"ms":${secondMs}}]`;
  let started = await h.start(agent, { message: options.asFollowUp ? "hello" : message });
  if (options.asFollowUp) {
    await h.eventsUntil(started.sessionId, (log) => log.some((e) => e.type === "session.waiting"));
    started = {
      ...started,
      ...(await h.followUp(agent, started.sessionId, { message, continuationToken: started.continuationToken })),
    };
  }
  const before = await h.eventsUntil(started.sessionId, (log) => ofType(log, "action.result").length === 1);
  const [first, second] = ofType(before, "actions.requested")[0]!.data.calls.map((c) => c.callId);
  await waitFor("the second call to start", async () => count(`sleepy-start-${second}`) === 1, {
    timeoutMs: 10_000,
    intervalMs: 20,
  });
  return { started, first: first!, second: second! };
}

function expectCleanLog(log: SessionEvent[], options: { gapless?: boolean } = {}) {
  if (options.gapless !== false) expect(log.map((e) => e.index)).toEqual(log.map((_, i) => i));
  expect(ofType(log, "turn.started")).toHaveLength(1);
  expect(ofType(log, "turn.completed")).toHaveLength(1);
  expect(ofType(log, "message.completed")).toHaveLength(1);
  const resultIds = ofType(log, "action.result").map((e) => e.data.callId);
  expect(new Set(resultIds).size).toBe(resultIds.length);
}

describe("a worker killed mid-turn", () => {
  it("during a write tool call: no write runs twice, the cut-off one fails with why, and the turn completes", async () => {
    // The first call has completed and the second is running when the worker dies.
    const { started, first, second } = await midSecondCall(300, 4000);
    await h.crashWorker();
    const log = await h.eventsUntil(started.sessionId, (l) => l.some((e) => e.type === "session.waiting"), 60_000);
    expectCleanLog(log);
    expect(count(`sleepy-start-${first}`)).toBe(1);
    expect(count(`sleepy-done-${first}`)).toBe(1);
    // The write cut off by the crash is not run again (at most once): the model hears why.
    expect(count(`sleepy-start-${second}`)).toBe(1);
    expect(count(`sleepy-done-${second}`)).toBe(0);
    const results = ofType(log, "action.result").map((e) => e.data);
    expect(results.map((r) => r.callId)).toEqual([first, second]);
    expect(results[1]).toMatchObject({
      isError: true,
      output: expect.stringMatching(/^interrupted: sleepy was started/),
    });
  }, 90_000);

  it("during a model stream: the step runs again as attempt 2 and nothing is duplicated", async () => {
    const started = await h.start(agent, { message: "slow thoughts [delay 3s]" });
    await h.eventsUntil(started.sessionId, (log) => log.some((e) => e.type === "step.started"));
    await h.crashWorker();
    const log = await h.eventsUntil(started.sessionId, (l) => l.some((e) => e.type === "session.waiting"), 60_000);
    expectCleanLog(log);
    expect(ofType(log, "step.started").map((e) => e.data)).toEqual([{ step: 0 }, { step: 0, attempt: 2 }]);
    expect(ofType(log, "step.completed")).toHaveLength(1);
  }, 90_000);

  it("while a call is parked for approval: kill -9 the worker, restart Restate, approve, and the turn completes", async () => {
    const started = await h.start(approvals, { message: '[call refund {"amount":12}]' });
    const parked = await h.eventsUntil(started.sessionId, (log) =>
      log.some((e) => e.type === "action.approval_requested"),
    );
    const callId = ofType(parked, "action.approval_requested")[0]!.data.callId;
    await h.crashWorker();
    await h.restartRestate();
    const decided = await decideApproval({
      db: h.db,
      runtime: h.runtime,
      agent: approvals,
      sessionId: started.sessionId,
      callId,
      caller: { principal: h.owner, can: (action) => action === "sessions:write" },
      body: { decision: "approve" },
    });
    expect(decided.delivered).toBe(true);
    const log = await h.eventsUntil(started.sessionId, (l) => l.some((e) => e.type === "session.waiting"), 60_000);
    expectCleanLog(log);
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      callId,
      isError: false,
      output: { refunded: 12, approvedBy: h.owner.id },
    });
  }, 120_000);

  it("Restate restarted mid-tool of a new session's first turn: the retried invocation waits for the run going on", async () => {
    const { started, first, second } = await midSecondCall(200, 3000);
    await h.restartRestate();
    const log = await h.eventsUntil(started.sessionId, (l) => l.some((e) => e.type === "session.waiting"), 60_000);
    expectCleanLog(log);
    // The run that started from the commit kept going and finished the turn: no call ran twice.
    expect(count(`sleepy-done-${first}`)).toBe(1);
    expect(count(`sleepy-start-${second}`)).toBe(1);
    expect(count(`sleepy-done-${second}`)).toBe(1);
    expect(ofType(log, "step.started").map((e) => e.data)).toEqual([{ step: 0 }, { step: 1 }]);
  }, 90_000);

  it("Restate restarted mid-tool of a follow-up turn while the worker lives on: two runs of the turn, one clean log", async () => {
    const { started, first, second } = await midSecondCall(200, 8000, { asFollowUp: true });
    // The worker's connection to Restate drops; Restate comes back and retries the invocation
    // while the first run is still inside the second call. Whichever run records a step first
    // wins; the other stops at its next record (fencing itself: step-journal.int.test.ts).
    await h.restartRestate();
    const done = (l: SessionEvent[]) => l.filter((e) => e.type === "session.waiting").length === 2;
    const log = await h.eventsUntil(started.sessionId, done, 60_000);
    const secondTurn = log.slice(log.findIndex((e) => e.type === "session.waiting") + 1);
    expect(log.map((e) => e.index)).toEqual(log.map((_, i) => i));
    expectCleanLog(secondTurn, { gapless: false });
    // The write in flight ran once: the new run waited for the old run (its worker alive) to
    // record it, and took its result.
    expect(count(`sleepy-done-${first}`)).toBe(1);
    expect(count(`sleepy-start-${second}`)).toBe(1);
    expect(count(`sleepy-done-${second}`)).toBe(1);
    expect(ofType(secondTurn, "action.result").map((e) => e.data)).toEqual([
      expect.objectContaining({ callId: first, isError: false }),
      expect.objectContaining({ callId: second, isError: false, output: "rested" }),
    ]);
    // Nothing more lands once both runs are done: one second step, one end.
    const after = await h.events(started.sessionId);
    expect(ofType(after.slice(secondTurn[0]!.index), "step.started").map((e) => e.data)).toEqual([
      { step: 0 },
      { step: 1 },
    ]);
    expect(after).toHaveLength(log.length);
  }, 90_000);

  it("a reminder set before a kill -9 of the worker fires into its session after the restart", async () => {
    const started = await h.start(agent, { message: "[remind 3s: Time to follow up]" });
    await h.eventsUntil(started.sessionId, (log) => log.some((e) => e.type === "session.waiting"));
    await h.crashWorker();
    const log = await h.eventsUntil(
      started.sessionId,
      (l) => l.filter((e) => e.type === "session.waiting").length === 2,
      60_000,
    );
    expect(ofType(log, "message.received").map((e) => e.data.text)).toEqual([
      "[remind 3s: Time to follow up]",
      "Time to follow up",
    ]);
  }, 90_000);
});
