// A new session's first turn runs from its commit, with no Restate invocation (eager-turns.ts);
// Restate takes over only what such a run leaves: a turn that waits on an approval, one that
// nobody was named to run (the sweep). A worker killed mid-run is in turn-crash.int.test.ts.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { decideApproval } from "@/server/approvals/decide-approval";
import { poolOf } from "@/server/db";
import { appendEvents } from "@/server/events/append-events";
import { followUpSession } from "@/server/sessions/follow-up-session";
import { recordSessionStart } from "@/server/sessions/record-session-start";
import { newDeliveryId, newSessionId, newTurnId } from "@/server/sessions/session-urls";
import { newContinuationToken } from "@/server/sessions/continuation-token";
import type { AgentRef } from "@/server/sessions/start-session";
import { eagerEpoch } from "@/server/turns/step-journal";
import { approvalAgent, engineAgent } from "@/testing/engine-agents";
import { liveWorkersSql } from "./live-workers";
import { ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

let h: Harness;
let agent: AgentRef;
let approvals: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("eager", engineAgent);
  approvals = await h.deploy("eager-approvals", approvalAgent);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const waits = (count: number) => (log: SessionEvent[]) => ofType(log, "session.waiting").length === count;
const gapless = (log: SessionEvent[]) => expect(log.map((e) => e.index)).toEqual(log.map((_, i) => i));

describe("a new session's first turn", () => {
  it("runs from its commit without an invocation; the next turn goes through Restate", async () => {
    const started = await h.start(agent, { message: '[call lookup {"orderId":"E1"}]' });
    const log = await h.eventsUntil(started.sessionId, waits(1));
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({ output: { orderId: "E1", status: "shipped" } });
    expect(await h.invocations(started.sessionId)).toEqual([]);
    const next = await h.followUp(agent, started.sessionId, {
      message: "and again",
      continuationToken: started.continuationToken,
    });
    const after = await h.eventsUntil(started.sessionId, waits(2));
    gapless(after);
    const second = ofType(after, "turn.started")[1]!.turnId;
    expect(await h.invocations(started.sessionId)).toEqual([second]);
    expect(next.admission).toBe("started");
    // The web sent it; had it died first, the sweep would have (named for nobody: 0).
    expect((await h.db.session.findUniqueOrThrow({ where: { id: started.sessionId } })).eagerWorker).toBe(0);
  });

  it("sends a follow-up whose web recorded it and died before sending it", async () => {
    const started = await h.start(agent, { message: "hello" });
    await h.eventsUntil(started.sessionId, waits(1));
    // The send never happens: this web process is gone after the follow-up's statement committed.
    const deadWeb = { ...h.runtime, sendTurn: () => new Promise<never>(() => undefined) };
    void followUpSession({
      db: h.db,
      runtime: deadWeb,
      agentId: agent.id,
      sessionId: started.sessionId,
      principal: h.owner,
      body: { message: '[call lookup {"orderId":"F1"}]', continuationToken: started.continuationToken },
    });
    const log = await h.eventsUntil(started.sessionId, waits(2), 15_000);
    gapless(log);
    const second = ofType(log, "turn.started")[1]!.turnId;
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({ output: { orderId: "F1" } });
    expect(await h.invocations(started.sessionId)).toEqual([second]);
  });

  it("goes to one live worker, named by the session's start: of two workers, exactly one runs each", async () => {
    await h.startExtraWorker();
    const { rows: live } = await poolOf(h.db).query<{ key: number }>(`SELECT key FROM ${liveWorkersSql} w`);
    expect(live).toHaveLength(2);
    const starts = await Promise.all(
      Array.from({ length: 6 }, (_, i) => h.start(agent, { message: `[call lookup {"orderId":"W${i}"}]` })),
    );
    for (const started of starts) {
      // Named before any worker ran anything: the start's own commit gave it its worker and epoch.
      const { eagerWorker } = await h.db.session.findUniqueOrThrow({ where: { id: started.sessionId } });
      expect(live.map((row) => row.key)).toContain(eagerWorker);
    }
    for (const started of starts) {
      const log = await h.eventsUntil(started.sessionId, waits(1));
      expect(ofType(log, "turn.started")).toHaveLength(1);
      expect(ofType(log, "step.started").map((e) => e.data)).toEqual([{ step: 0 }, { step: 1 }]);
      expect(await h.invocations(started.sessionId)).toEqual([]);
      // No run but the named one took the turn: its epoch is still the one the start gave.
      expect((await h.db.session.findUniqueOrThrow({ where: { id: started.sessionId } })).turnEpoch).toBe(eagerEpoch);
    }
  });

  it("a follow-up its run drained into, left unqueued by a worker that died, is sent by the sweep", async () => {
    const started = await h.start(agent, { message: "hello" });
    await h.eventsUntil(started.sessionId, waits(1));
    // What the eager run's finish leaves when its worker dies before queueing the follow-up: the
    // session runs the drained turn, with no invocation, under a liveness key nobody holds.
    const turnId = newTurnId();
    await appendEvents({
      db: h.db,
      sessionId: started.sessionId,
      events: [
        {
          type: "message.received",
          turnId,
          data: { text: '[call lookup {"orderId":"E3"}]', deliveryIds: [newDeliveryId()] },
        },
      ],
    });
    await h.db.session.update({
      where: { id: started.sessionId },
      data: { status: "running", runningTurnId: turnId, runningInvocationId: null, eagerWorker: 424242 },
    });
    const log = await h.eventsUntil(started.sessionId, waits(2), 15_000);
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({ output: { orderId: "E3", status: "shipped" } });
    expect(await h.invocations(started.sessionId)).toEqual([turnId]);
  });

  it("hands a call that needs approval to an invocation, which parks it; approved, the turn completes", async () => {
    const started = await h.start(approvals, { message: '[call refund {"amount":7}]' });
    const parked = await h.eventsUntil(
      started.sessionId,
      (log) => ofType(log, "action.approval_requested").length === 1,
    );
    const turnId = ofType(parked, "message.received")[0]!.turnId;
    expect(await h.invocations(started.sessionId)).toEqual([turnId]);
    const callId = ofType(parked, "action.approval_requested")[0]!.data.callId;
    await decideApproval({
      db: h.db,
      runtime: h.runtime,
      agent: approvals,
      sessionId: started.sessionId,
      callId,
      caller: { principal: h.owner, can: () => true },
      body: { decision: "approve" },
    });
    const log = await h.eventsUntil(started.sessionId, waits(1));
    // The model step the eager run recorded was not run again by the invocation.
    expect(ofType(log, "step.started").map((e) => e.data)).toEqual([{ step: 0 }, { step: 1 }]);
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      callId,
      isError: false,
      output: { refunded: 7, approvedBy: h.owner.id },
    });
    expect(ofType(log, "turn.completed")).toHaveLength(1);
    gapless(log);
  });

  it("preempted while it runs eagerly: it ends cancelled before the new message's turn starts", async () => {
    const started = await h.start(agent, { message: "slow thoughts [delay 5s]" });
    await h.eventsUntil(started.sessionId, (log) => ofType(log, "step.started").length === 1);
    const at = Date.now();
    await h.followUp(agent, started.sessionId, { message: "never mind", continuationToken: started.continuationToken });
    const log = await h.eventsUntil(started.sessionId, waits(1));
    expect(Date.now() - at).toBeLessThan(3_000);
    const ends = log
      .filter((e) => e.type === "turn.failed" || e.type === "turn.completed" || e.type === "turn.started")
      .map((e) => e.type);
    expect(ends).toEqual(["turn.started", "turn.failed", "turn.started", "turn.completed"]);
    expect(ofType(log, "turn.failed")[0]!.data).toMatchObject({ status: "cancelled" });
    gapless(log);
  });

  it("steers in a send queued while its worker's LISTEN connection was down: heard of or not, it asks", async () => {
    // The eager run skips the database at a tool boundary only while it could have heard every
    // send: on the connection that heard its session start. That connection (the one holding the
    // liveness lock its session names) drops mid-tool, and the send's notice, committed
    // meanwhile, reaches nobody.
    const started = await h.start(agent, { message: '[call sleepy {"ms":1500}]' });
    await h.eventsUntil(started.sessionId, (log) => ofType(log, "actions.requested").length === 1);
    const { rows } = await poolOf(h.db).query<{ dropped: boolean }>(
      `SELECT pg_terminate_backend(w.pid) AS dropped FROM ${liveWorkersSql} w WHERE w.key = (SELECT "eagerWorker" FROM sessions WHERE id = $1)`,
      [started.sessionId],
    );
    expect(rows.map((row) => row.dropped)).toEqual([true]);
    await h.followUp(agent, started.sessionId, {
      message: "while nobody listens",
      continuationToken: started.continuationToken,
      admission: "coalesce",
      deliveryId: "dlv_unheard",
    });
    const log = await h.eventsUntil(started.sessionId, waits(1));
    expect(ofType(log, "nudge.delivered").map((e) => e.data)).toEqual([
      { deliveryId: "dlv_unheard", text: "while nobody listens" },
    ]);
    expect(ofType(log, "message.received")).toHaveLength(1);
    gapless(log);
  });

  it("keeps its turn when its worker's LISTEN connection drops: the worker's new key takes it over", async () => {
    const started = await h.start(agent, { message: '[call sleepy {"ms":3000}]' });
    await h.eventsUntil(started.sessionId, (log) => ofType(log, "actions.requested").length === 1);
    const keyOf = async () => (await h.db.session.findUniqueOrThrow({ where: { id: started.sessionId } })).eagerWorker;
    const liveKeys = async () =>
      (await poolOf(h.db).query<{ key: number }>(`SELECT key FROM ${liveWorkersSql} w`)).rows.map((row) => row.key);
    const old = await keyOf();
    await poolOf(h.db).query(`SELECT pg_terminate_backend(w.pid) FROM ${liveWorkersSql} w WHERE w.key = $1`, [old]);
    // Back within the tool's three seconds, under a fresh key that the running turn moved to.
    const deadline = Date.now() + 2_500;
    let moved = false;
    while (!moved && Date.now() < deadline) {
      const key = await keyOf();
      moved = key !== old && (await liveKeys()).includes(key!);
      if (!moved) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(moved).toBe(true);
    // (A sweep that ran while the old key was dead and the new one not yet taken may have sent
    // the turn to Restate meanwhile: its run then supersedes the eager one, and the turn still
    // completes once.)
    const log = await h.eventsUntil(started.sessionId, waits(1));
    expect(ofType(log, "turn.completed")).toHaveLength(1);
    gapless(log);
  });

  it("announced but heard by nobody, is sent to Restate by the sweep", async () => {
    // The commit POST /session makes, whose notice no worker heard (a LISTEN connection was down):
    // recorded unannounced, then marked as the announcing statement marks a turn no live worker could be named for (0).
    const turn = { sessionId: newSessionId(), turnId: newTurnId(), message: '[call lookup {"orderId":"E2"}]' };
    const { announced } = await recordSessionStart(poolOf(h.db), {
      ...turn,
      agentId: agent.id,
      versionId: agent.activeVersionId!,
      principal: h.owner,
      channelId: "http",
      mode: "chat",
      continuationHash: newContinuationToken().hash,
      deliveryId: newDeliveryId(),
    });
    expect(announced).toBe(false);
    await h.db.session.update({ where: { id: turn.sessionId }, data: { eagerWorker: 0 } });
    const log = await h.eventsUntil(turn.sessionId, waits(1), 15_000);
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({ output: { orderId: "E2", status: "shipped" } });
    expect(await h.invocations(turn.sessionId)).toEqual([turn.turnId]);
  });

  it("too long to announce, or recorded by a caller that queues it itself, is never swept", async () => {
    const turn = { sessionId: newSessionId(), turnId: newTurnId(), message: `hello ${"padding ".repeat(1_000)}` };
    const { announced } = await recordSessionStart(poolOf(h.db), {
      ...turn,
      agentId: agent.id,
      versionId: agent.activeVersionId!,
      principal: h.owner,
      channelId: "http",
      mode: "chat",
      continuationHash: newContinuationToken().hash,
      deliveryId: newDeliveryId(),
      announce: true,
    });
    expect(announced).toBe(false);
    // Three sweeps later nothing has run it: it is its recorder's to queue.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(ofType(await h.events(turn.sessionId), "turn.started")).toEqual([]);
    expect(await h.invocations(turn.sessionId)).toEqual([]);
  });
});
