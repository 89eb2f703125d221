import { describe, expect, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { trajectoryOf } from "./trajectory";

const sessionId = "ses_0123456789abcdef0123456789abcdef";
const usage = { inputTokens: 10, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** A log from events without their envelopes: indexes and times filled in. */
function log(...events: { type: string; turnId?: string; data: Record<string, unknown> }[]): SessionEvent[] {
  return events.map((e, index) => ({ ...e, index, sessionId, at: "2026-12-02T10:00:00.000Z" }) as SessionEvent);
}

describe("trajectoryOf", () => {
  it("gives each turn's message, calls with their outcomes, reply and usage", () => {
    const events = log(
      { type: "session.started", data: { channelId: "http", mode: "chat", purpose: "live" } },
      { type: "message.received", turnId: "t1", data: { text: "Refund A-1", deliveryIds: ["d1"] } },
      { type: "step.started", turnId: "t1", data: { step: 0 } },
      { type: "message.completed", turnId: "t1", data: { text: "Calling lookup, refund." } },
      {
        type: "actions.requested",
        turnId: "t1",
        data: {
          calls: [
            { callId: "c1", toolName: "lookup", args: { id: "A-1" } },
            { callId: "c2", toolName: "refund", args: { id: "A-1" } },
          ],
        },
      },
      {
        type: "action.result",
        turnId: "t1",
        data: { callId: "c1", toolName: "lookup", output: { ok: 1 }, isError: false },
      },
      {
        type: "action.approval_requested",
        turnId: "t1",
        data: { callId: "c2", toolName: "refund", args: { id: "A-1" }, requestedBy: { kind: "local", id: "local" } },
      },
      {
        type: "action.approval_resolved",
        turnId: "t1",
        data: { callId: "c2", decision: "denied", approvedBy: { kind: "user", id: "u1" }, reason: "too large" },
      },
      {
        type: "action.result",
        turnId: "t1",
        data: { callId: "c2", toolName: "refund", output: "denied", isError: true },
      },
      { type: "step.started", turnId: "t1", data: { step: 1 } },
      { type: "message.completed", turnId: "t1", data: { text: "The refund was denied." } },
      { type: "turn.completed", turnId: "t1", data: { usage } },
    );
    const trajectory = trajectoryOf(events);
    expect(trajectory).toMatchObject({
      sessionId,
      status: "completed",
      reply: "The refund was denied.",
      usage,
      toolCalls: [
        { callId: "c1", tool: "lookup", input: { id: "A-1" }, status: "completed", output: { ok: 1 } },
        {
          callId: "c2",
          tool: "refund",
          status: "denied",
          approval: { decision: "denied", by: "user:u1", reason: "too large" },
        },
      ],
    });
    expect(trajectory.turns).toHaveLength(1);
    expect(trajectory.turns[0]!.messages).toEqual(["Refund A-1"]);
  });

  it("keeps a subagent's text out of the reply, sums usage over turns, and shows a parked call", () => {
    const events = log(
      { type: "message.received", turnId: "t1", data: { text: "a" } },
      { type: "step.started", turnId: "t1", data: { step: 0, parentCallId: "task1" } },
      { type: "message.completed", turnId: "t1", data: { text: "subagent says" } },
      { type: "step.started", turnId: "t1", data: { step: 1 } },
      { type: "message.completed", turnId: "t1", data: { text: "parent says" } },
      { type: "turn.completed", turnId: "t1", data: { usage } },
      { type: "message.received", turnId: "t2", data: { text: "b" } },
      { type: "actions.requested", turnId: "t2", data: { calls: [{ callId: "c9", toolName: "refund" }] } },
      {
        type: "action.approval_requested",
        turnId: "t2",
        data: { callId: "c9", toolName: "refund", args: {}, requestedBy: { kind: "local", id: "local" } },
      },
    );
    const trajectory = trajectoryOf(events);
    expect(trajectory.turns[0]!.reply).toBe("parent says");
    expect(trajectory.status).toBe("waiting");
    expect(trajectory.toolCalls.at(-1)).toMatchObject({ tool: "refund", status: "waiting", input: {} });
    expect(trajectory.usage.inputTokens).toBe(10);
  });

  it("reports a failed or stopped turn with its message", () => {
    const failed = trajectoryOf(
      log(
        { type: "message.received", turnId: "t1", data: { text: "x" } },
        { type: "turn.failed", turnId: "t1", data: { message: "stopped", status: "cancelled" } },
      ),
    );
    expect(failed).toMatchObject({ status: "cancelled", reply: null, turns: [{ error: "stopped" }] });
    expect(trajectoryOf([])).toMatchObject({ sessionId: null, status: "idle", turns: [] });
  });
});
