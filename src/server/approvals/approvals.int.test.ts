// Approvals on a real engine (docs/turns.md "Approvals"): parked calls wait durably, a decision (or an expiry, a
// stop, the unattended policy) resolves each one, and the tool runs with ctx.approvedBy only
// after an approval.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Caller, Principal } from "@/server/auth/principal";
import { agentDir } from "@/server/agents/storage";
import type { AgentRef } from "@/server/sessions/start-session";
import { approvalAgent } from "@/testing/engine-agents";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";
import { decideApproval } from "./decide-approval";

let h: Harness;
let agent: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("approvals", approvalAgent);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

// The owner decides in their own session through sessions:write alone.
const ownerCaller = (): Caller => ({ principal: h.owner, can: (action) => action === "sessions:write" });
const teammate: Caller = {
  principal: { kind: "app", id: "token:teammate" },
  can: (action) => action === "approvals:write",
};
const stranger: Caller = { principal: { kind: "app", id: "token:stranger" }, can: () => false };

function decide(
  target: AgentRef,
  sessionId: string,
  callId: string,
  decision: "approve" | "deny",
  caller = ownerCaller(),
  reason?: string,
) {
  return decideApproval({
    db: h.db,
    runtime: h.runtime,
    agent: target,
    sessionId,
    callId,
    caller,
    body: { decision, ...(reason ? { reason } : {}) },
  });
}

async function parked(message: string, count = 1, on = agent) {
  const started = await h.start(on, { message });
  const log = await h.eventsUntil(started.sessionId, has("action.approval_requested", count));
  return {
    sessionId: started.sessionId,
    callIds: ofType(log, "action.approval_requested").map((e) => e.data.callId),
    log,
  };
}

describe("parking and deciding", () => {
  it("parks a needsApproval call; approved, the tool runs with approvedBy", async () => {
    const { sessionId, callIds, log } = await parked('[call refund {"amount":5}]');
    expect(ofType(log, "action.approval_requested")[0]!.data).toEqual({
      callId: callIds[0],
      toolName: "refund",
      args: { amount: 5 },
      requestedBy: h.owner,
    });
    expect(ofType(log, "action.result")).toEqual([]);
    expect(await decide(agent, sessionId, callIds[0]!, "approve")).toMatchObject({
      ok: true,
      decision: "approved",
      delivered: true,
    });
    const done = await h.eventsUntil(sessionId, has("session.waiting"));
    expect(ofType(done, "action.approval_resolved")[0]!.data).toEqual({
      callId: callIds[0],
      decision: "approved",
      approvedBy: h.owner,
    });
    expect(ofType(done, "action.result")[0]!.data).toMatchObject({
      isError: false,
      output: { refunded: 5, approvedBy: h.owner.id },
    });
    const types = done.map((e) => e.type);
    expect(types.indexOf("action.approval_resolved")).toBeLessThan(types.indexOf("action.result"));
  });

  it("a denial reaches the model as an error result with the reason; the tool never runs", async () => {
    const { sessionId, callIds } = await parked('[call refund {"amount":7}]');
    await decide(agent, sessionId, callIds[0]!, "deny", teammate, "refunds over 5 need a manager");
    const done = await h.eventsUntil(sessionId, has("session.waiting"));
    expect(ofType(done, "action.approval_resolved")[0]!.data).toMatchObject({
      decision: "denied",
      approvedBy: teammate.principal,
      reason: "refunds over 5 need a manager",
    });
    expect(ofType(done, "action.result")[0]!.data).toMatchObject({
      isError: true,
      output: "denied by token:teammate: refunds over 5 need a manager",
    });
    expect(ofType(done, "message.completed")[0]!.data.text).toContain("The refund tool failed: denied");
    const log = path.join(agentDir(h.dataDir, agent.id), "state", "refunds.log");
    expect(fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "").not.toContain(callIds[0]!);
  });

  it("decides two parallel parked calls separately; the step goes on when both are decided", async () => {
    const { sessionId, callIds } = await parked('[call refund {"amount":1}] [call refund {"amount":2}]', 2);
    expect(callIds).toHaveLength(2);
    await decide(agent, sessionId, callIds[1]!, "deny");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ofType(await h.events(sessionId), "action.result")).toEqual([]);
    await decide(agent, sessionId, callIds[0]!, "approve");
    const done = await h.eventsUntil(sessionId, has("session.waiting"));
    expect(ofType(done, "action.result").map((e) => [e.data.callId, e.data.isError])).toEqual([
      [callIds[0], false],
      [callIds[1], true],
    ]);
  });

  it("refuses a principal without rights (403), a second decision (409) and an unknown call (404)", async () => {
    const { sessionId, callIds } = await parked('[call refund {"amount":3}]');
    await expect(decide(agent, sessionId, callIds[0]!, "approve", stranger)).rejects.toMatchObject({
      code: "forbidden",
      status: 403,
    });
    // The owner reading with read rights only (a member demoted to viewer) decides nothing.
    const readOnlyOwner: Caller = { principal: h.owner, can: (action) => action === "sessions:read" };
    await expect(decide(agent, sessionId, callIds[0]!, "approve", readOnlyOwner)).rejects.toMatchObject({
      code: "forbidden",
    });
    await decide(agent, sessionId, callIds[0]!, "approve");
    await expect(decide(agent, sessionId, callIds[0]!, "deny")).rejects.toMatchObject({
      code: "already_resolved",
      status: 409,
    });
    await expect(decide(agent, sessionId, "call_nope", "approve")).rejects.toMatchObject({
      code: "not_found",
      status: 404,
    });
    await h.eventsUntil(sessionId, has("session.waiting"));
  });

  it("asks the tool's own function: small refunds run at once, big ones park", async () => {
    const small = await h.start(agent, { message: '[call big_refund {"amount":50}]' });
    const smallLog = await h.eventsUntil(small.sessionId, has("session.waiting"));
    expect(ofType(smallLog, "action.approval_requested")).toEqual([]);
    expect(ofType(smallLog, "action.result")[0]!.data.output).toEqual({ refunded: 50, approvedBy: null });
    const big = await parked('[call big_refund {"amount":500}]');
    await decide(agent, big.sessionId, big.callIds[0]!, "approve");
    const bigLog = await h.eventsUntil(big.sessionId, has("session.waiting"));
    expect(ofType(bigLog, "action.result")[0]!.data.output).toEqual({ refunded: 500, approvedBy: h.owner.id });
  });

  it("asks for no approval of a write stubbed in a dry run", async () => {
    const started = await h.start(agent, { message: '[call refund {"amount":9}]', dryRun: true });
    const log = await h.eventsUntil(started.sessionId, has("session.waiting"));
    expect(ofType(log, "action.approval_requested")).toEqual([]);
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({ stubbed: true });
  });
});

describe("stop, and sessions with nobody to ask", () => {
  it("stop cancels a parked call; deciding afterwards is refused", async () => {
    const { sessionId, callIds } = await parked('[call refund {"amount":4}]');
    await h.stop(agent, sessionId);
    const done = await h.eventsUntil(sessionId, has("session.waiting"));
    expect(ofType(done, "action.approval_resolved")[0]!.data).toEqual({
      callId: callIds[0],
      decision: "denied",
      reason: "cancelled",
    });
    expect(ofType(done, "turn.failed")[0]!.data.status).toBe("cancelled");
    await expect(decide(agent, sessionId, callIds[0]!, "approve")).rejects.toMatchObject({ code: "already_resolved" });
  });

  it("denies at once in a task session by default, and parks when the agent's policy says so", async () => {
    const task = await h.start(agent, { message: '[call refund {"amount":2}]' }, { mode: "task" });
    const denied = await h.eventsUntil(task.sessionId, has("session.completed"));
    expect(ofType(denied, "action.approval_resolved")[0]!.data).toMatchObject({
      decision: "denied",
      reason: "unattended",
    });
    expect(ofType(denied, "action.result")[0]!.data).toMatchObject({ isError: true });
    await h.db.agent.update({ where: { id: agent.id }, data: { unattendedApprovals: "park" } });
    try {
      const parkedTask = await h.start(agent, { message: '[call refund {"amount":2}]' }, { mode: "task" });
      const log = await h.eventsUntil(parkedTask.sessionId, has("action.approval_requested"));
      await decide(agent, parkedTask.sessionId, ofType(log, "action.approval_requested")[0]!.data.callId, "approve");
      const done = await h.eventsUntil(parkedTask.sessionId, has("session.completed"));
      expect(ofType(done, "action.result")[0]!.data).toMatchObject({ isError: false });
    } finally {
      await h.db.agent.update({ where: { id: agent.id }, data: { unattendedApprovals: "deny" } });
    }
  });
});

describe("expiry", () => {
  let short: Harness;
  let shortAgent: AgentRef;
  beforeAll(async () => {
    short = await startTurnHarness({ databaseUrl: inject("databaseUrl"), approvalTimeoutMs: 1_500 });
    shortAgent = await short.deploy("expiring", approvalAgent);
  }, 120_000);
  afterAll(async () => {
    await short?.close();
  });

  it("a call nobody decides expires as denied", async () => {
    const started = await short.start(shortAgent, { message: '[call refund {"amount":8}]' });
    const log = await short.eventsUntil(started.sessionId, has("session.waiting"), 20_000);
    const callId = ofType(log, "action.approval_requested")[0]!.data.callId;
    expect(ofType(log, "action.approval_resolved")[0]!.data).toEqual({ callId, decision: "denied", reason: "expired" });
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      isError: true,
      output: expect.stringContaining("expired"),
    });
    const principal: Principal = short.owner;
    await expect(
      decideApproval({
        db: short.db,
        runtime: short.runtime,
        agent: shortAgent,
        sessionId: started.sessionId,
        callId,
        caller: { principal, can: (action) => action === "sessions:write" },
        body: { decision: "approve" },
      }),
    ).rejects.toMatchObject({ code: "already_resolved" });
  });
});
