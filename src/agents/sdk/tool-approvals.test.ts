import { describe, expect, it } from "vitest";
import { defineChannel } from "./channels";
import { buildToolApprovalEvents as fromSlack } from "./channels/slack";
import type { SessionEventOf } from "./events";
import { buildToolApprovalEvents, type ToolApprovalRequest, type ToolApprovalResolution } from "./tool-approvals";

const principal = { kind: "user" as const, id: "u_ada" };
const envelope = { sessionId: "ses_1", turnId: "trn_1", at: "2026-01-01T00:00:00.000Z" };
const requested: SessionEventOf<"action.approval_requested"> = {
  ...envelope,
  type: "action.approval_requested",
  index: 4,
  data: { callId: "call/1", toolName: "issue_refund", args: { orderId: "A-1" }, requestedBy: principal },
};
const resolved: SessionEventOf<"action.approval_resolved"> = {
  ...envelope,
  type: "action.approval_resolved",
  index: 5,
  data: { callId: "call/1", decision: "denied", approvedBy: principal, reason: "not today" },
};

describe("buildToolApprovalEvents", () => {
  it("hands a channel's surface each parked call with the route that decides it, then the outcome", async () => {
    const seen: (ToolApprovalRequest | ToolApprovalResolution | string)[] = [];
    const events = buildToolApprovalEvents<string>({
      onRequested: (request, ctx) => void seen.push(request, ctx),
      onResolved: (resolution, ctx) => void seen.push(resolution, ctx),
    });
    await events["action.approval_requested"]!(requested, "channel ctx");
    await events["action.approval_resolved"]!(resolved, "channel ctx");
    expect(seen).toEqual([
      {
        sessionId: "ses_1",
        turnId: "trn_1",
        callId: "call/1",
        toolName: "issue_refund",
        args: { orderId: "A-1" },
        requestedBy: principal,
        decidePath: "/v1/session/ses_1/approvals/call%2F1",
      },
      "channel ctx",
      { sessionId: "ses_1", callId: "call/1", decision: "denied", approvedBy: principal, reason: "not today" },
      "channel ctx",
    ]);
  });

  it("is an events map defineChannel accepts beside the channel's own handlers", () => {
    const events = buildToolApprovalEvents({ onRequested: () => undefined });
    expect(Object.keys(events)).toEqual(["action.approval_requested"]);
    const channel = defineChannel({ events: { ...events, "message.completed": () => undefined } });
    expect(Object.keys(channel.events ?? {})).toEqual(["action.approval_requested", "message.completed"]);
  });

  it("refuses handlers that are not functions, naming the field", () => {
    expect(() => buildToolApprovalEvents({ onRequested: "post" } as never)).toThrow(
      "buildToolApprovalEvents: onRequested: expected a function",
    );
  });

  it("is the same function from /channels/slack", () => {
    expect(fromSlack).toBe(buildToolApprovalEvents);
  });
});
