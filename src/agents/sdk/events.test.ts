import { describe, expect, it } from "vitest";
import { isSessionEventType, sessionEventSchema, sessionEventTypes, type SessionEventType } from "./events";

const user = { kind: "user", id: "usr_1", attributes: { user_id: "U1" } };

// One valid data payload per event type; the keys must cover the whole vocabulary.
const samples: Record<SessionEventType, Record<string, unknown>> = {
  "session.started": { channelId: "http", mode: "chat", purpose: "live", title: "Refund", dryRun: false },
  "session.waiting": {},
  "session.completed": { result: { ok: true } },
  "session.failed": { message: "model unavailable" },
  "agent.bound": { url: "https://example.com/agents/a1", agentId: "a1" },
  "message.received": { text: "hello", deliveryIds: ["dlv_1", "dlv_2"] },
  "nudge.delivered": { deliveryId: "dlv_3" },
  "turn.queued": { position: 1 },
  "turn.started": {},
  "turn.completed": {
    result: "done",
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 2 },
    cost: { totalUsd: 0.0012, model: "openai:gpt-4o-mini" },
  },
  "turn.failed": { message: "turn interrupted", status: "cancelled" },
  "step.started": { step: 0 },
  "step.completed": { step: 0, durationMs: 420 },
  "reasoning.appended": { delta: "Thinking" },
  "reasoning.completed": { text: "Thinking about it" },
  "message.appended": { delta: "Hel" },
  "message.completed": { text: "Hello" },
  "actions.requested": {
    calls: [
      { callId: "call_1", toolName: "lookup", args: { q: "x" } },
      { callId: "call_2", toolName: "read", parentCallId: "call_0" },
    ],
  },
  "actions.completed": { callIds: ["call_1", "call_2"] },
  "action.result": { callId: "call_1", toolName: "lookup", output: { hits: [] }, isError: false, stubbed: true },
  "action.tool_retry": { callId: "call_1", toolName: "lookup", attempt: 2, error: "ECONNRESET" },
  "action.approval_requested": { callId: "call_1", toolName: "refund", args: { amount: 5 }, requestedBy: user },
  "action.approval_resolved": { callId: "call_1", decision: "approved", approvedBy: user, reason: "ok" },
  "subagent.called": { callId: "call_9", subagent: "reviewer", prompt: "Review this" },
  "subagent.completed": { callId: "call_9", subagent: "reviewer", result: "Looks fine" },
  "connection.auth_requested": {
    connection: "crm",
    authorizeUrl: "https://auth.example.com/authorize?state=s",
    expiresAt: "2026-12-02T12:00:00.000Z",
  },
  "connection.auth_resolved": { connection: "crm", outcome: "connected" },
  "artifact.tagged": { kind: "report", key: "2024-w1", title: "Weekly", data: { n: 1 } },
};

const envelope = (type: string, data: unknown, extra: Record<string, unknown> = {}) => ({
  type,
  index: 3,
  sessionId: "ses_abc123",
  turnId: "turn_1",
  at: "2024-05-01T12:00:00.000Z",
  data,
  ...extra,
});

describe("sessionEventSchema", () => {
  it("lists every event type of the vocabulary exactly once", () => {
    expect([...sessionEventTypes].sort()).toEqual(Object.keys(samples).sort());
    expect(new Set(sessionEventTypes).size).toBe(sessionEventTypes.length);
  });

  it.each(Object.entries(samples))("parses a valid %s event", (type, data) => {
    expect(sessionEventSchema.parse(envelope(type, data))).toEqual(envelope(type, data));
  });

  it("accepts events without a turnId and with minimal optional data", () => {
    const { turnId: _, ...withoutTurn } = envelope("message.received", { text: "hi" });
    expect(sessionEventSchema.safeParse(withoutTurn).success).toBe(true);
    expect(sessionEventSchema.safeParse(envelope("turn.completed", {})).success).toBe(true);
    expect(sessionEventSchema.safeParse(envelope("nudge.delivered", {})).success).toBe(true);
  });

  it("rejects an unknown event type", () => {
    const result = sessionEventSchema.safeParse(envelope("turn.exploded", {}));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["type"]);
  });

  it("rejects a broken envelope", () => {
    const valid = envelope("turn.started", {});
    expect(sessionEventSchema.safeParse({ ...valid, index: -1 }).success).toBe(false);
    expect(sessionEventSchema.safeParse({ ...valid, index: 1.5 }).success).toBe(false);
    expect(sessionEventSchema.safeParse({ ...valid, sessionId: "abc" }).success).toBe(false);
    expect(sessionEventSchema.safeParse({ ...valid, at: "yesterday" }).success).toBe(false);
    expect(sessionEventSchema.safeParse({ ...valid, extra: true }).success).toBe(false);
    const { data: _, ...withoutData } = valid;
    expect(sessionEventSchema.safeParse(withoutData).success).toBe(false);
  });

  it("rejects data that drifts from the contract", () => {
    const bad: [string, unknown][] = [
      ["turn.started", { surprise: 1 }],
      ["message.received", {}],
      ["turn.failed", { message: "x", status: "exploded" }],
      ["actions.requested", { calls: [] }],
      ["action.result", { callId: "c", toolName: "t" }],
      ["action.approval_resolved", { callId: "c", decision: "maybe", approvedBy: user }],
      ["action.approval_requested", { callId: "c", toolName: "t", args: {}, requestedBy: { kind: "robot", id: "x" } }],
      ["action.tool_retry", { callId: "c", toolName: "t", attempt: 1, error: "e" }],
      ["turn.completed", { usage: { inputTokens: 1 } }],
      ["session.started", { channelId: "http", mode: "forever", purpose: "live" }],
      ["turn.queued", { position: 0 }],
      ["agent.bound", { url: "not a url", agentId: "a" }],
    ];
    for (const [type, data] of bad) {
      expect(sessionEventSchema.safeParse(envelope(type, data)).success, type).toBe(false);
    }
  });
});

describe("isSessionEventType", () => {
  it("knows the vocabulary", () => {
    expect(isSessionEventType("action.result")).toBe(true);
    expect(isSessionEventType("*")).toBe(false);
    expect(isSessionEventType("action.results")).toBe(false);
  });
});
