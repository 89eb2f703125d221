import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";
import { barEvents, buildTrace, traceBars, type TraceBar } from "./trace-model";

const t0 = Date.UTC(2026, 0, 1);

/** A log builder: gapless indexes, a clock that moves by `ms` per event unless told, schema-checked. */
function log(turnId = "turn_1") {
  const events: SessionEvent[] = [];
  let clock = t0;
  const add = (type: string, data: object, options: { turnId?: string | null; ms?: number } = {}) => {
    clock += options.ms ?? 100;
    const turn = options.turnId === null ? undefined : (options.turnId ?? turnId);
    events.push(
      sessionEventSchema.parse({
        type,
        index: events.length,
        sessionId: "ses_test",
        ...(turn ? { turnId: turn } : {}),
        at: new Date(clock).toISOString(),
        data,
      }),
    );
    return add;
  };
  return { add, events };
}

const usage = { inputTokens: 120, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 };
const shape = (bars: TraceBar[]) => bars.map((bar) => `${"  ".repeat(bar.depth)}${bar.kind} ${bar.label}`);

/** The offline model's `[call lookup_order …]`: a step asking for the tool, then the answer. */
function toolTurn() {
  const { add, events } = log();
  add(
    "session.started",
    { channelId: "http", mode: "chat", purpose: "live" },
    { turnId: null },
  )("message.received", { text: "Where is A-1002?" })("turn.started", {})("step.started", { step: 0 })(
    "message.appended",
    { delta: "Calling lookup_order." },
  )(
    "actions.requested",
    { calls: [{ callId: "c1", toolName: "lookup_order", args: { orderId: "A-1002" } }] },
    { ms: 400 },
  )(
    "action.result",
    { callId: "c1", toolName: "lookup_order", output: { found: true }, isError: false },
    { ms: 250 },
  )("actions.completed", { callIds: ["c1"] })("step.completed", { step: 0, durationMs: 750 })("step.started", {
    step: 1,
  })(
    "message.appended",
    { delta: "It shipped." },
    { ms: 300 },
  )("step.completed", { step: 1, durationMs: 300 })("message.completed", { text: "It shipped." })("turn.completed", {
    usage,
  })("session.waiting", {}, { turnId: null });
  return events;
}

describe("a turn with a tool call", () => {
  const events = toolTurn();
  const trace = buildTrace(events);
  const bars = traceBars(trace);

  it("is a turn row with its steps, model calls and the tool call in log order", () => {
    expect(shape(bars)).toEqual([
      "turn Turn 1",
      "  step Step 1",
      "    model Model call",
      "    tool lookup_order",
      "  step Step 2",
      "    model Model call",
    ]);
    expect(bars.map((bar) => bar.indices[0])).toEqual([1, 3, 3, 5, 9, 9]);
  });

  it("keeps exactly the events of each bar", () => {
    const byKind = (kind: string) => bars.filter((bar) => bar.kind === kind);
    expect(byKind("turn")[0]!.indices).toEqual([1, 2, 12, 13]);
    expect(byKind("step")[0]!.indices).toEqual([3, 7, 8]);
    expect(byKind("model")[0]!.indices).toEqual([3, 4, 5]);
    expect(byKind("tool")[0]!.indices).toEqual([5, 6]);
    expect(byKind("model")[1]!.indices).toEqual([9, 10, 11]);
    expect(barEvents(trace, byKind("tool")[0]!).map((event) => event.type)).toEqual([
      "actions.requested",
      "action.result",
    ]);
  });

  it("times each bar from its events, a step by its reported duration, and puts the usage on the turn", () => {
    const [turn, step, model, tool] = bars;
    expect(turn).toMatchObject({ status: "ok", isOpen: false, usage, detail: "Where is A-1002?" });
    expect(turn!.durationMs).toBe(Date.parse(events[13]!.at) - Date.parse(events[1]!.at));
    expect(step).toMatchObject({ durationMs: 750, status: "ok" });
    expect(model).toMatchObject({ durationMs: 500, endMs: Date.parse(events[5]!.at) });
    expect(tool).toMatchObject({ durationMs: 250, status: "ok", isOpen: false });
    expect(trace.turns[0]).toMatchObject({ number: 1, startMs: turn!.startMs, endMs: turn!.endMs });
  });

  it("leaves events outside turns out of every bar", () => {
    const all = new Set(bars.flatMap((bar) => bar.indices));
    expect(all.has(0)).toBe(false);
    expect(all.has(14)).toBe(false);
    expect(all.size).toBe(13);
  });

  it("is the same whatever order and how often the events arrive", () => {
    const shuffled = [...events.slice(7), ...events, ...events.slice(0, 7)].reverse();
    expect(traceBars(buildTrace(shuffled))).toEqual(bars);
  });
});

describe("unfinished work", () => {
  it("draws a running turn's open bars to now", () => {
    const { add, events } = log();
    add("message.received", { text: "Refund" })("turn.started", {})("step.started", { step: 0 })("actions.requested", {
      calls: [{ callId: "c1", toolName: "issue_refund", args: {} }],
    })("action.approval_requested", {
      callId: "c1",
      toolName: "issue_refund",
      args: {},
      requestedBy: { kind: "local", id: "local" },
    });
    const nowMs = Date.parse(events.at(-1)!.at) + 5000;
    const bars = traceBars(buildTrace(events, { nowMs }));
    expect(shape(bars)).toEqual([
      "turn Turn 1",
      "  step Step 1",
      "    model Model call",
      "    tool issue_refund",
      "      approval Approval wait",
    ]);
    for (const bar of bars.filter((bar) => bar.kind !== "model")) {
      expect(bar).toMatchObject({ isOpen: true, status: "running", endMs: nowMs });
      expect(bar.durationMs).toBeUndefined();
    }
    expect(bars[2]).toMatchObject({ isOpen: false, status: "ok" });
  });

  it("marks bars a failed turn left open as cancelled, drawn to the turn's end", () => {
    const { add, events } = log();
    add("message.received", { text: "Slow" })("turn.started", {})("step.started", { step: 0 })("actions.requested", {
      calls: [{ callId: "c1", toolName: "slow_tool", args: {} }],
    })("turn.failed", { message: "stopped", status: "cancelled", code: "cancelled" }, { ms: 2000 });
    const bars = traceBars(buildTrace(events, { nowMs: t0 + 60_000 }));
    const turnEnd = Date.parse(events.at(-1)!.at);
    expect(bars[0]).toMatchObject({ status: "cancelled", error: "stopped", endMs: turnEnd, isOpen: false });
    for (const bar of [bars[1], bars[3]])
      expect(bar).toMatchObject({ isOpen: true, status: "cancelled", endMs: turnEnd });
  });

  it("ends a crashed attempt's model call where the rerun starts", () => {
    const { add, events } = log();
    add("turn.started", {})("step.started", { step: 0 })("message.appended", { delta: "Hal" })(
      "step.started",
      { step: 0, attempt: 2 },
      { ms: 3000 },
    )("message.appended", { delta: "Hello" })("step.completed", { step: 0, durationMs: 200 })("turn.completed", {});
    const bars = traceBars(buildTrace(events));
    expect(shape(bars)).toEqual(["turn Turn 1", "  step Step 1", "    model Model call", "    model Model call"]);
    expect(bars[1]).toMatchObject({ detail: "attempt 2", indices: [1, 3, 5] });
    expect(bars[2]).toMatchObject({ status: "cancelled", indices: [1, 2, 3], durationMs: 3100 });
    expect(bars[3]).toMatchObject({ status: "ok", indices: [3, 4, 5] });
  });
});

describe("logs cut short or out of step", () => {
  it("places a step whose start is missing by its reported duration, and a call by its first event", () => {
    const { add, events } = log();
    add("message.appended", { delta: "…" }, { ms: 1000 })(
      "action.result",
      { callId: "c9", toolName: "lookup_order", isError: true },
      { ms: 1000 },
    )("step.completed", { step: 3, durationMs: 1500 })("turn.completed", {});
    const bars = traceBars(buildTrace(events));
    expect(shape(bars)).toEqual(["turn Turn 1", "  tool lookup_order", "  step Step 4"]);
    expect(bars[1]).toMatchObject({ status: "error", indices: [1], durationMs: 0 });
    // 1500 ms before its end would be before the turn's first event: it is drawn from there.
    expect(bars[2]).toMatchObject({ startMs: bars[0]!.startMs, durationMs: 1500 });
  });

  it("keeps a bar inside its parent when another process's clock runs behind", () => {
    const { add, events } = log();
    add("turn.started", {})("step.started", { step: 0 }, { ms: -5000 })("step.completed", { step: 0, durationMs: 4 })(
      "turn.completed",
      {},
    );
    const [turn, step] = traceBars(buildTrace(events));
    expect(step!.startMs).toBe(turn!.startMs);
    expect(step!.endMs).toBeGreaterThanOrEqual(step!.startMs);
  });
});

describe("approvals and subagents", () => {
  it("shows an approval wait under its call, with who decided", () => {
    const { add, events } = log();
    add("turn.started", {})("step.started", { step: 0 })("actions.requested", {
      calls: [{ callId: "c1", toolName: "issue_refund", args: {} }],
    })("action.approval_requested", {
      callId: "c1",
      toolName: "issue_refund",
      args: {},
      requestedBy: { kind: "local", id: "local" },
    })(
      "action.approval_resolved",
      { callId: "c1", decision: "approved", approvedBy: { kind: "user", id: "u1", attributes: { name: "Ada" } } },
      { ms: 8000 },
    )("action.result", { callId: "c1", toolName: "issue_refund", isError: false });
    const approval = traceBars(buildTrace(events)).find((bar) => bar.kind === "approval")!;
    expect(approval).toMatchObject({ durationMs: 8000, status: "ok", detail: "approved by Ada", indices: [3, 4] });
  });

  it("shows each Connect wait under the turn, before the first step, with how it ended", () => {
    const { add, events } = log();
    const request = (state: number) => ({
      connection: "crm",
      authorizeUrl: `https://crm.example/authorize?state=${state}`,
      expiresAt: new Date(t0 + 600_000).toISOString(),
    });
    add("turn.started", {})("connection.auth_requested", request(1))(
      "connection.auth_resolved",
      { connection: "crm", outcome: "connected" },
      { ms: 5000 },
    )("connection.auth_requested", request(2))("connection.auth_resolved", { connection: "crm", outcome: "expired" })(
      "turn.failed",
      { message: "Reconnect crm" },
    );
    const bars = traceBars(buildTrace(events));
    expect(shape(bars)).toEqual(["turn Turn 1", "  connection Connect crm", "  connection Connect crm"]);
    expect(bars.slice(1)).toEqual([
      expect.objectContaining({ status: "ok", detail: "connected", durationMs: 5000, indices: [1, 2] }),
      expect.objectContaining({ status: "error", detail: "expired", indices: [3, 4] }),
    ]);
    expect(bars[0]!.indices).toEqual([0, 5]);
  });

  it("leaves a Connect wait running until its outcome comes", () => {
    const { add, events } = log();
    add("turn.started", {})("connection.auth_requested", {
      connection: "crm",
      authorizeUrl: "https://crm.example/authorize",
      expiresAt: new Date(t0 + 600_000).toISOString(),
    });
    const wait = traceBars(buildTrace(events)).find((bar) => bar.kind === "connection")!;
    expect(wait).toMatchObject({ status: "running", isOpen: true, detail: "waiting for someone to connect" });
  });

  it("nests a subagent's steps and calls under the task call that ran it", () => {
    const { add, events } = log();
    const sub = { parentCallId: "t1" };
    add("turn.started", {})("step.started", { step: 0 })("actions.requested", {
      calls: [{ callId: "t1", toolName: "task", args: { subagent: "escalation" } }],
    })("subagent.called", { callId: "t1", subagent: "escalation", prompt: "look" })("step.started", {
      step: 0,
      ...sub,
    })("actions.requested", { calls: [{ callId: "c2", toolName: "lookup_order", args: {}, ...sub }] })(
      "action.result",
      { callId: "c2", toolName: "lookup_order", isError: false },
    )("actions.completed", {
      callIds: ["c2"],
    })("step.completed", { step: 0, durationMs: 300, ...sub })("step.started", { step: 1, ...sub })("step.completed", {
      step: 1,
      durationMs: 100,
      ...sub,
    })("subagent.completed", { callId: "t1", subagent: "escalation", result: "done" })("action.result", {
      callId: "t1",
      toolName: "task",
      isError: false,
    })("actions.completed", { callIds: ["t1"] })("step.completed", { step: 0, durationMs: 1400 })("turn.completed", {});
    const bars = traceBars(buildTrace(events));
    expect(shape(bars)).toEqual([
      "turn Turn 1",
      "  step Step 1",
      "    model Model call",
      "    tool task",
      "      subagent Subagent escalation",
      "        step Step 1",
      "          model Model call",
      "          tool lookup_order",
      "        step Step 2",
      "          model Model call",
    ]);
    expect(bars[5]!.indices).toEqual([4, 7, 8]);
    expect(bars[1]!.indices).toEqual([1, 13, 14]);
    expect(bars.every((bar) => bar.status === "ok")).toBe(true);
  });

  it("numbers turns in log order, each with its own span", () => {
    const { add, events } = log();
    add("turn.started", {})("turn.completed", {})("turn.started", {}, { turnId: "turn_2", ms: 60_000 })(
      "turn.completed",
      {},
      { turnId: "turn_2" },
    );
    const { turns } = buildTrace(events);
    expect(turns.map((turn) => [turn.turnId, turn.number, turn.endMs - turn.startMs])).toEqual([
      ["turn_1", 1, 100],
      ["turn_2", 2, 100],
    ]);
  });
});

describe("any log", () => {
  const callIds = ["c1", "c2", "c3"];
  const at = fc.integer({ min: 0, max: 10_000 });
  const maybeParent = fc.option(fc.constantFrom(...callIds), { nil: undefined });
  const data = fc.oneof(
    fc.record({ type: fc.constant("turn.started"), data: fc.constant({}) }),
    fc.record({ type: fc.constant("turn.completed"), data: fc.constant({}) }),
    fc.record({ type: fc.constant("turn.failed"), data: fc.constant({ message: "x" }) }),
    fc.record({ type: fc.constant("message.appended"), data: fc.constant({ delta: "x" }) }),
    fc.record({
      type: fc.constant("step.started"),
      data: fc.record({
        step: fc.nat(2),
        attempt: fc.option(fc.integer({ min: 2, max: 3 }), { nil: undefined }),
        parentCallId: maybeParent,
      }),
    }),
    fc.record({
      type: fc.constant("step.completed"),
      data: fc.record({ step: fc.nat(2), durationMs: fc.nat(5000), parentCallId: maybeParent }),
    }),
    fc.record({
      type: fc.constant("actions.requested"),
      data: fc.record({
        calls: fc.array(
          fc.record({ callId: fc.constantFrom(...callIds), toolName: fc.constant("t"), parentCallId: maybeParent }),
          { minLength: 1, maxLength: 2 },
        ),
      }),
    }),
    fc.record({
      type: fc.constant("action.result"),
      data: fc.record({ callId: fc.constantFrom(...callIds), toolName: fc.constant("t"), isError: fc.boolean() }),
    }),
    fc.record({
      type: fc.constant("actions.completed"),
      data: fc.record({ callIds: fc.array(fc.constantFrom(...callIds), { maxLength: 2 }) }),
    }),
    fc.record({
      type: fc.constant("action.approval_resolved"),
      data: fc.record({ callId: fc.constantFrom(...callIds), decision: fc.constantFrom("approved", "denied") }),
    }),
    fc.record({
      type: fc.constant("connection.auth_requested"),
      data: fc.record({
        connection: fc.constantFrom("crm", "wiki"),
        authorizeUrl: fc.constant("https://x.example/a"),
        expiresAt: fc.constant("2026-01-01T00:10:00.000Z"),
      }),
    }),
    fc.record({
      type: fc.constant("connection.auth_resolved"),
      data: fc.record({
        connection: fc.constantFrom("crm", "wiki"),
        outcome: fc.constantFrom("connected", "expired", "cancelled"),
      }),
    }),
    fc.record({
      type: fc.constant("subagent.called"),
      data: fc.record({ callId: fc.constantFrom(...callIds), subagent: fc.constant("s"), prompt: fc.constant("p") }),
    }),
    fc.record({
      type: fc.constant("subagent.completed"),
      data: fc.record({ callId: fc.constantFrom(...callIds), subagent: fc.constant("s"), result: fc.constant("r") }),
    }),
  );
  const logs = fc
    .array(fc.record({ event: data, at, turnId: fc.constantFrom("turn_a", "turn_b", undefined) }), { maxLength: 40 })
    .map((rows) =>
      rows.map(({ event, at, turnId }, index) =>
        sessionEventSchema.parse(
          JSON.parse(
            JSON.stringify({ ...event, index, sessionId: "ses_p", turnId, at: new Date(t0 + at).toISOString() }),
          ),
        ),
      ),
    );

  it("puts every turn's event in a bar, only events of the log, each bar's in order", () => {
    fc.assert(
      fc.property(logs, (events) => {
        const trace = buildTrace(events);
        const bars = traceBars(trace);
        const inBars = new Set(bars.flatMap((bar) => bar.indices));
        expect([...inBars].sort((a, b) => a - b)).toEqual(events.filter((e) => e.turnId).map((e) => e.index));
        for (const bar of bars) {
          expect(bar.indices.length).toBeGreaterThan(0);
          expect(bar.indices).toEqual([...new Set(bar.indices)].sort((a, b) => a - b));
          expect(barEvents(trace, bar).map((event) => event.index)).toEqual(bar.indices);
          expect(barEvents(trace, bar).every((event) => event.turnId === bar.turnId)).toBe(true);
        }
      }),
    );
  });

  it("never starts a bar before its parent, in the log or on the clock, nor ends it after", () => {
    fc.assert(
      fc.property(logs, fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }), (events, now) => {
        const bars = traceBars(buildTrace(events, { nowMs: now === undefined ? undefined : t0 + now }));
        const byId = new Map(bars.map((bar) => [bar.id, bar]));
        for (const [position, bar] of bars.entries()) {
          expect(bar.endMs).toBeGreaterThanOrEqual(bar.startMs);
          if (bar.durationMs !== undefined) expect(bar.durationMs).toBeGreaterThanOrEqual(0);
          if (!bar.parentId) {
            expect(bar.depth).toBe(0);
            continue;
          }
          const parent = byId.get(bar.parentId)!;
          expect(bars.indexOf(parent)).toBeLessThan(position);
          expect(bar.depth).toBe(parent.depth + 1);
          expect(bar.indices[0]).toBeGreaterThanOrEqual(parent.indices[0]!);
          expect(bar.startMs).toBeGreaterThanOrEqual(parent.startMs);
          expect(bar.endMs).toBeLessThanOrEqual(parent.endMs);
        }
      }),
    );
  });

  it("does not depend on the order the events arrive in", () => {
    fc.assert(
      fc.property(
        logs.chain((events) =>
          fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length })),
        ),
        ([events, shuffled]) => {
          expect(traceBars(buildTrace(shuffled))).toEqual(traceBars(buildTrace(events)));
        },
      ),
    );
  });
});
