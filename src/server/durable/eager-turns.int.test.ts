// A new session's first turn starts from its commit (eager-turns.ts), and its Restate invocation
// takes over what that run leaves: nothing once the turn finished, the rest when the turn waits
// on an approval. The turns here are recorded without being sent, so only the eager path can run
// them until the test sends their invocation.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { decideApproval } from "@/server/approvals/decide-approval";
import { poolOf } from "@/server/db";
import { queueTurn } from "@/server/sessions/queue-turn";
import { recordSessionStart } from "@/server/sessions/record-session-start";
import { newDeliveryId, newSessionId, newTurnId } from "@/server/sessions/session-urls";
import { newContinuationToken } from "@/server/sessions/continuation-token";
import type { AgentRef } from "@/server/sessions/start-session";
import { approvalAgent, engineAgent } from "@/testing/engine-agents";
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

/** Commits a new session and its first turn as POST /session does, without queueing the turn. */
async function commitOnly(on: AgentRef, message: string) {
  const continuation = newContinuationToken();
  const turn = { sessionId: newSessionId(), turnId: newTurnId(), message };
  await recordSessionStart(poolOf(h.db), {
    ...turn, agentId: on.id, versionId: on.activeVersionId!, principal: h.owner, channelId: "http", mode: "chat",
    continuationHash: continuation.hash, deliveryId: newDeliveryId(),
  });
  return { turn, continuationToken: continuation.token };
}

const waits = (count: number) => (log: SessionEvent[]) => ofType(log, "session.waiting").length === count;

describe("a new session's first turn", () => {
  it("runs from its commit, before its invocation; the invocation then adds nothing and the session goes on", async () => {
    const { turn, continuationToken } = await commitOnly(agent, '[call lookup {"orderId":"E1"}]');
    const log = await h.eventsUntil(turn.sessionId, waits(1));
    expect(ofType(log, "turn.completed")).toHaveLength(1);
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({ output: { orderId: "E1", status: "shipped" } });
    // The invocation arrives late: it finds the turn done. A follow-up queues behind it on the
    // session's object, so once that one ran, the first invocation has ended.
    await queueTurn({ db: h.db, runtime: h.runtime, turn, mode: "chat" });
    await h.followUp(agent, turn.sessionId, { message: "and again", continuationToken });
    const after = await h.eventsUntil(turn.sessionId, waits(2));
    expect(after.slice(0, log.length)).toEqual(log);
    expect(ofType(after, "turn.started").map((e) => e.turnId)).toEqual([turn.turnId, expect.not.stringMatching(turn.turnId)]);
    expect(ofType(after, "step.started").filter((e) => e.turnId === turn.turnId)).toHaveLength(2);
    expect(after.map((e) => e.index)).toEqual(after.map((_, i) => i));
  });

  it("hands a call that needs approval to its invocation, which parks it; approved, the turn completes", async () => {
    const { turn } = await commitOnly(approvals, '[call refund {"amount":7}]');
    // The eager run streams the model step, then stops at the approval: it needs a durable promise.
    await h.eventsUntil(turn.sessionId, (log) => ofType(log, "actions.requested").length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ofType(await h.events(turn.sessionId), "action.approval_requested")).toEqual([]);
    await queueTurn({ db: h.db, runtime: h.runtime, turn, mode: "chat" });
    const parked = await h.eventsUntil(turn.sessionId, (log) => ofType(log, "action.approval_requested").length === 1);
    const callId = ofType(parked, "action.approval_requested")[0]!.data.callId;
    await decideApproval({ db: h.db, runtime: h.runtime, agent: approvals, sessionId: turn.sessionId, callId, caller: { principal: h.owner, can: () => true }, body: { decision: "approve" } });
    const log = await h.eventsUntil(turn.sessionId, waits(1));
    // The model step the eager run recorded was not run again.
    expect(ofType(log, "step.started").map((e) => e.data)).toEqual([{ step: 0 }, { step: 1 }]);
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({ callId, isError: false, output: { refunded: 7, approvedBy: h.owner.id } });
    expect(ofType(log, "turn.completed")).toHaveLength(1);
    expect(log.map((e) => e.index)).toEqual(log.map((_, i) => i));
  });
});
