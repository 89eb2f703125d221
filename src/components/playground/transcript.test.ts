import { describe, expect, it } from "vitest";
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";
import { applyEvent, applyEvents, buildTranscript, emptyTranscript, type Transcript } from "./transcript";
import {
  isTurnActive,
  pendingApprovals,
  pendingConnections,
  principalLabel,
  transcriptBlocks,
} from "./transcript-view-model";

/** A log builder: gapless indexes, one clock second per event, every event schema-checked. */
function log(turnId = "turn_1") {
  const events: SessionEvent[] = [];
  const add = (type: string, data: object, options: { turnId?: string | null; atMs?: number } = {}) => {
    const index = events.length;
    const at = new Date(Date.UTC(2026, 0, 1) + (options.atMs ?? index * 1000)).toISOString();
    const turn = options.turnId === null ? undefined : (options.turnId ?? turnId);
    events.push(
      sessionEventSchema.parse({ type, index, sessionId: "ses_test", ...(turn ? { turnId: turn } : {}), at, data }),
    );
    return add;
  };
  return { add, events };
}

const texts = (t: Transcript, kind: string) =>
  t.items.filter((item) => item.kind === kind).map((item) => ("text" in item ? item.text : ""));

describe("messages", () => {
  it("shows the user's message and the streamed reply, replaced by the completed text", () => {
    const { add, events } = log();
    add("message.received", { text: "Hello there" })("turn.started", {})("step.started", { step: 0 })(
      "message.appended",
      { delta: "You said" },
    )("message.appended", { delta: ": hi" });
    const streaming = buildTranscript(events);
    expect(texts(streaming, "user")).toEqual(["Hello there"]);
    expect(streaming.items.at(-1)).toMatchObject({ kind: "assistant", text: "You said: hi", isComplete: false });

    add("step.completed", { step: 0, durationMs: 5 })("message.completed", { text: "You said: hello." })(
      "turn.completed",
      {},
    );
    const done = buildTranscript(events);
    expect(texts(done, "assistant")).toEqual(["You said: hello."]);
    expect(done.items.at(-1)).toMatchObject({ isComplete: true });
  });

  it("ignores an event it has already seen, alone or in a replayed batch", () => {
    const { add, events } = log();
    add("message.received", { text: "Hi" })("turn.started", {})("step.started", { step: 0 })("message.appended", {
      delta: "abc",
    });
    const once = buildTranscript(events);
    expect(applyEvent(once, events[3]!)).toBe(once);
    const replayed = applyEvents(once, events);
    expect(texts(replayed, "assistant")).toEqual(["abc"]);
    expect(texts(replayed, "user")).toEqual(["Hi"]);
    expect(replayed.lastIndex).toBe(3);
  });

  it("continues without duplicated text when a reconnect resends the tail", () => {
    const { add, events } = log();
    add("message.received", { text: "Hi" })("turn.started", {})("step.started", { step: 0 });
    for (const word of ["one ", "two ", "three"]) add("message.appended", { delta: word });
    const before = buildTranscript(events.slice(0, 4));
    const after = applyEvents(before, events.slice(2));
    expect(texts(after, "assistant")).toEqual(["one two three"]);
  });

  it("shows a steered-in follow-up as a user message", () => {
    const { add, events } = log();
    add("message.received", { text: "Look it up" })("nudge.delivered", { deliveryId: "dlv_1", text: "also order A-2" });
    const t = buildTranscript(events);
    expect(t.items.map((item) => item.kind === "user" && item.isNudge)).toEqual([false, true]);
    expect(texts(t, "user")).toEqual(["Look it up", "also order A-2"]);
  });

  it("keeps each step's text apart and replaces only the final step's with message.completed", () => {
    const { add, events } = log();
    add("message.received", { text: "[call lookup_order {}]" })("turn.started", {})("step.started", { step: 0 })(
      "message.appended",
      { delta: "Calling lookup_order." },
    )("actions.requested", { calls: [{ callId: "c1", toolName: "lookup_order", args: {} }] })("action.result", {
      callId: "c1",
      toolName: "lookup_order",
      output: { found: true },
      isError: false,
    })("actions.completed", { callIds: ["c1"] })("step.completed", { step: 0, durationMs: 1 })("step.started", {
      step: 1,
    })("message.appended", { delta: "The lookup" })("message.completed", {
      text: "The lookup_order tool returned: {}.",
    });
    const t = buildTranscript(events);
    expect(t.items.map((item) => item.kind)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(texts(t, "assistant")).toEqual(["Calling lookup_order.", "The lookup_order tool returned: {}."]);
  });

  it("adds the completed text when the final step streamed none", () => {
    const { add, events } = log();
    add("message.received", { text: "hi" })("turn.started", {})("step.started", { step: 0 })("message.completed", {
      text: "Done.",
    });
    expect(texts(buildTranscript(events), "assistant")).toEqual(["Done."]);
  });
});

describe("reasoning", () => {
  it("streams reasoning into its own item and settles it with the completed text", () => {
    const { add, events } = log();
    add("message.received", { text: "hi" })("turn.started", {})("step.started", { step: 0 })("reasoning.appended", {
      delta: "The user ",
    })("reasoning.appended", { delta: "wrote" });
    expect(buildTranscript(events).items.at(-1)).toMatchObject({
      kind: "reasoning",
      text: "The user wrote",
      isComplete: false,
    });
    add("reasoning.completed", { text: "The user wrote 1 word." })("message.appended", { delta: "Hi" });
    const t = buildTranscript(events);
    expect(t.items.map((item) => item.kind)).toEqual(["user", "reasoning", "assistant"]);
    expect(texts(t, "reasoning")).toEqual(["The user wrote 1 word."]);
  });
});

describe("a step that runs again after a crash (attempt ≥ 2)", () => {
  it("drops the cut-off attempt's deltas and keeps the rerun's", () => {
    const { add, events } = log();
    add("message.received", { text: "hi" })("turn.started", {})("step.started", { step: 0 })("reasoning.appended", {
      delta: "Thinking",
    })("message.appended", { delta: "You sa" })("step.started", { step: 0, attempt: 2 })("reasoning.appended", {
      delta: "Thinking again",
    })("message.appended", { delta: "You said hi" });
    const t = buildTranscript(events);
    expect(texts(t, "assistant")).toEqual(["You said hi"]);
    expect(texts(t, "reasoning")).toEqual(["Thinking again"]);
    expect(texts(t, "user")).toEqual(["hi"]);
  });

  it("keeps earlier steps' text and the re-requested tool call once", () => {
    const { add, events } = log();
    add("message.received", { text: "x" })("turn.started", {})("step.started", { step: 0 })("message.appended", {
      delta: "Step one.",
    })("step.completed", { step: 0, durationMs: 1 })("step.started", { step: 1 })("message.appended", {
      delta: "Calling",
    })("actions.requested", { calls: [{ callId: "c1", toolName: "lookup_order" }] })("step.started", {
      step: 1,
      attempt: 2,
    })("message.appended", { delta: "Calling lookup_order." })("actions.requested", {
      calls: [{ callId: "c1", toolName: "lookup_order" }],
    });
    const t = buildTranscript(events);
    expect(texts(t, "assistant")).toEqual(["Step one.", "Calling lookup_order."]);
    expect(t.items.filter((item) => item.kind === "tool")).toHaveLength(1);
  });
});

describe("tool calls", () => {
  const request = (add: ReturnType<typeof log>["add"]) =>
    add("message.received", { text: "go" })("turn.started", {})("step.started", { step: 0 })("actions.requested", {
      calls: [
        { callId: "c1", toolName: "lookup_order", args: { orderId: "A-1001" } },
        { callId: "c2", toolName: "draft_reply", args: { points: ["x"] } },
      ],
    });

  it("runs, then is done with its output and the time between request and result", () => {
    const { add, events } = log();
    request(add);
    expect(buildTranscript(events).calls.c1).toMatchObject({
      state: "running",
      toolName: "lookup_order",
      args: { orderId: "A-1001" },
    });
    add(
      "action.result",
      { callId: "c1", toolName: "lookup_order", output: { found: true }, isError: false },
      { atMs: 3000 + 2500 },
    );
    const call = buildTranscript(events).calls.c1!;
    expect(call).toMatchObject({ state: "done", output: { found: true }, durationMs: 2500 });
  });

  it("shows errors, stubbed writes and retries", () => {
    const { add, events } = log();
    request(add)("action.tool_retry", { callId: "c1", toolName: "lookup_order", attempt: 2, error: "ECONNRESET" })(
      "action.result",
      { callId: "c1", toolName: "lookup_order", output: "no order A-1001", isError: true },
    )("action.result", { callId: "c2", toolName: "draft_reply", output: null, isError: false, stubbed: true });
    const t = buildTranscript(events);
    expect(t.calls.c1).toMatchObject({
      state: "error",
      output: "no order A-1001",
      retries: [{ attempt: 2, error: "ECONNRESET" }],
    });
    expect(t.calls.c2!.state).toBe("stubbed");
    expect(t.items.filter((item) => item.kind === "tool").map((item) => item.kind === "tool" && item.callId)).toEqual([
      "c1",
      "c2",
    ]);
  });

  it("marks calls left without a result as cancelled when the turn is stopped", () => {
    const { add, events } = log();
    request(add)("action.result", { callId: "c1", toolName: "lookup_order", output: {}, isError: false })(
      "turn.failed",
      { message: "turn interrupted", status: "cancelled" },
    );
    const t = buildTranscript(events);
    expect(t.calls.c1!.state).toBe("done");
    expect(t.calls.c2!.state).toBe("cancelled");
    expect(t.turns.turn_1).toMatchObject({ state: "cancelled", message: "turn interrupted" });
  });

  it("nests a subagent's steps and calls under the call that started it", () => {
    const { add, events } = log();
    add("message.received", { text: "[subagent escalation calm them]" })("turn.started", {})("step.started", {
      step: 0,
    })("actions.requested", {
      calls: [{ callId: "task1", toolName: "task", args: { subagent: "escalation", prompt: "calm them" } }],
    })("subagent.called", { callId: "task1", subagent: "escalation", prompt: "calm them" })("step.started", {
      step: 0,
      parentCallId: "task1",
    })("actions.requested", { calls: [{ callId: "sub1", toolName: "lookup_order", args: {}, parentCallId: "task1" }] })(
      "action.result",
      { callId: "sub1", toolName: "lookup_order", output: {}, isError: false },
    )("step.completed", { step: 0, durationMs: 3, parentCallId: "task1" })("subagent.completed", {
      callId: "task1",
      subagent: "escalation",
      result: "A human will reply.",
    })("action.result", { callId: "task1", toolName: "task", output: "A human will reply.", isError: false });
    const t = buildTranscript(events);
    expect(t.items.filter((item) => item.kind === "tool").map((item) => item.kind === "tool" && item.callId)).toEqual([
      "task1",
    ]);
    expect(t.calls.task1).toMatchObject({
      children: ["sub1"],
      subagentSteps: 1,
      state: "done",
      subagent: { name: "escalation", prompt: "calm them", result: "A human will reply." },
    });
    expect(t.calls.sub1).toMatchObject({ parentCallId: "task1", state: "done" });
  });
});

describe("approvals", () => {
  const owner = { kind: "app" as const, id: "token:1", attributes: { name: "owner", teamId: "t1" } };
  const parked = () => {
    const { add, events } = log();
    add("message.received", { text: "refund" })("turn.started", {})("step.started", { step: 0 })("actions.requested", {
      calls: [{ callId: "r1", toolName: "issue_refund", args: { orderId: "A-1", reason: "broken" } }],
    })("action.approval_requested", {
      callId: "r1",
      toolName: "issue_refund",
      args: { orderId: "A-1", reason: "broken" },
      requestedBy: owner,
    });
    return { add, events };
  };

  it("parks a call with its full arguments until someone decides", () => {
    const { events } = parked();
    const t = buildTranscript(events);
    expect(pendingApprovals(t).map((call) => call.callId)).toEqual(["r1"]);
    expect(t.calls.r1!.approval).toMatchObject({ status: "pending", args: { orderId: "A-1", reason: "broken" } });
  });

  it("records the decision, who made it and when, then the tool result", () => {
    const { add, events } = parked();
    add("action.approval_resolved", { callId: "r1", decision: "approved", approvedBy: owner })("action.result", {
      callId: "r1",
      toolName: "issue_refund",
      output: { refunded: "A-1" },
      isError: false,
    });
    const t = buildTranscript(events);
    expect(pendingApprovals(t)).toEqual([]);
    expect(t.calls.r1).toMatchObject({
      state: "done",
      approval: { status: "approved", approvedBy: owner, decidedAt: events[5]!.at },
    });
    expect(principalLabel(t.calls.r1!.approval!.approvedBy)).toBe("owner");
  });

  it("shows a denial with its reason and no pending buttons after the turn is stopped", () => {
    const { add, events } = parked();
    add("action.approval_resolved", { callId: "r1", decision: "denied", reason: "cancelled" })("turn.failed", {
      message: "turn interrupted",
      status: "cancelled",
    });
    const t = buildTranscript(events);
    expect(t.calls.r1!.approval).toMatchObject({ status: "denied", reason: "cancelled" });
    expect(pendingApprovals(t)).toEqual([]);
  });

  it("names a principal by name, then email, then id", () => {
    expect(principalLabel({ kind: "user", id: "u1", attributes: { email: "a@b.c" } })).toBe("a@b.c");
    expect(principalLabel({ kind: "anonymous", id: "anonymous" })).toBe("anonymous");
    expect(principalLabel(undefined)).toBe("nobody");
  });
});

describe("connections to connect", () => {
  const expiresAt = "2026-01-01T00:10:00.000Z";
  const waiting = () => {
    const { add, events } = log();
    add("message.received", { text: "look up the deal" })("turn.started", {})("connection.auth_requested", {
      connection: "crm",
      authorizeUrl: "https://crm.example/authorize?state=1",
      expiresAt,
    });
    return { add, events };
  };
  const cards = (t: Transcript) => t.items.flatMap((item) => (item.kind === "connection" ? [item.auth] : []));

  it("asks for the connection with the provider's page and the deadline, and the turn waits", () => {
    const { events } = waiting();
    const t = buildTranscript(events);
    expect(cards(t)).toEqual([
      {
        connection: "crm",
        status: "pending",
        authorizeUrl: "https://crm.example/authorize?state=1",
        expiresAt,
        requestedAt: events[2]!.at,
        resolvedAt: undefined,
      },
    ]);
    expect(pendingConnections(t)).toEqual([{ turnId: "turn_1", auth: cards(t)[0] }]);
  });

  it.each([
    ["connected", "connected"],
    ["expired", "expired"],
    ["cancelled", "cancelled"],
  ] as const)("shows the outcome %s on the same card, which no longer waits", (outcome, status) => {
    const { add, events } = waiting();
    add("connection.auth_resolved", { connection: "crm", outcome });
    const t = buildTranscript(events);
    expect(cards(t)).toEqual([expect.objectContaining({ connection: "crm", status, resolvedAt: events[3]!.at })]);
    expect(pendingConnections(t)).toEqual([]);
  });

  it("keeps one card per connection: a new request replaces the URL and waits again", () => {
    const { add, events } = waiting();
    add("connection.auth_resolved", { connection: "crm", outcome: "connected" })("connection.auth_requested", {
      connection: "crm",
      authorizeUrl: "https://crm.example/authorize?state=2",
      expiresAt: "2026-01-01T00:20:00.000Z",
    });
    const t = buildTranscript(events);
    expect(cards(t)).toEqual([
      expect.objectContaining({
        status: "pending",
        authorizeUrl: "https://crm.example/authorize?state=2",
        expiresAt: "2026-01-01T00:20:00.000Z",
        resolvedAt: undefined,
      }),
    ]);
  });

  it("keeps another connection's card, and another turn's, apart", () => {
    const { add, events } = waiting();
    add("connection.auth_requested", { connection: "wiki", authorizeUrl: "https://wiki.example/a", expiresAt })(
      "connection.auth_resolved",
      { connection: "wiki", outcome: "connected" },
    )(
      "connection.auth_requested",
      { connection: "crm", authorizeUrl: "https://crm.example/b", expiresAt },
      { turnId: "turn_2" },
    );
    const t = buildTranscript(events);
    expect(cards(t).map((auth) => `${auth.connection}:${auth.status}:${auth.authorizeUrl}`)).toEqual([
      "crm:pending:https://crm.example/authorize?state=1",
      "wiki:connected:https://wiki.example/a",
      "crm:pending:https://crm.example/b",
    ]);
  });

  it("stops waiting when the turn ends without an outcome, and shows an outcome whose request it missed", () => {
    const { add, events } = waiting();
    add("turn.failed", { message: "worker lost", status: "error" })(
      "connection.auth_resolved",
      { connection: "crm", outcome: "expired" },
      { turnId: "turn_2" },
    );
    const t = buildTranscript(events);
    expect(cards(t).map((auth) => [auth.status, auth.authorizeUrl])).toEqual([
      ["cancelled", "https://crm.example/authorize?state=1"],
      ["expired", undefined],
    ]);
    expect(pendingConnections(t)).toEqual([]);
  });

  it("sits between the message and the reply, and stays when the first step runs again", () => {
    const { add, events } = waiting();
    add("connection.auth_resolved", { connection: "crm", outcome: "connected" })("step.started", { step: 0 })(
      "message.appended",
      { delta: "partial" },
    )("step.started", { step: 0, attempt: 2 })("message.appended", { delta: "Found it." });
    const t = buildTranscript(events);
    expect(t.items.map((item) => item.kind)).toEqual(["user", "connection", "assistant"]);
    expect(texts(t, "assistant")).toEqual(["Found it."]);
  });
});

describe("artifacts", () => {
  const tagged = () => {
    const { add, events } = log();
    add("message.received", { text: "refund it" })("turn.started", {})("step.started", { step: 0 })(
      "message.appended",
      { delta: "Tagging." },
    )("actions.requested", { calls: [{ callId: "c1", toolName: "tag_artifact" }] })("artifact.tagged", {
      kind: "refund",
      key: "A-1",
      title: "Refund A-1",
      data: { orderId: "A-1", amount: 3 },
    })("action.result", { callId: "c1", toolName: "tag_artifact", output: { key: "A-1" }, isError: false });
    return { add, events };
  };

  it("shows a tag where it happened: after its tool call, before the text that follows", () => {
    const { add, events } = tagged();
    add("step.started", { step: 1 })("message.appended", { delta: "Done." });
    const t = buildTranscript(events);
    expect(t.items.map((item) => item.kind)).toEqual(["user", "assistant", "tool", "artifact", "assistant"]);
    expect(t.items[3]).toMatchObject({
      kind: "artifact",
      artifact: { kind: "refund", key: "A-1", title: "Refund A-1", data: { orderId: "A-1", amount: 3 } },
      at: events[5]!.at,
    });
    expect(texts(t, "assistant")).toEqual(["Tagging.", "Done."]);
  });

  it("keeps a tag when its step runs again after a crash, and shows a tag outside a turn", () => {
    const { add, events } = tagged();
    add("step.started", { step: 0, attempt: 2 })("artifact.tagged", { kind: "note", key: "n1" }, { turnId: null });
    const t = buildTranscript(events);
    const tags = t.items.flatMap((item) => (item.kind === "artifact" ? [item.artifact] : []));
    expect(tags).toEqual([
      expect.objectContaining({ kind: "refund", key: "A-1" }),
      { kind: "note", key: "n1", title: undefined, data: undefined },
    ]);
    expect(texts(t, "assistant")).toEqual([]);
  });
});

describe("turn status", () => {
  it("goes queued → running → completed with usage and cost", () => {
    const { add, events } = log();
    add("message.received", { text: "hi" })("turn.queued", { position: 2 });
    expect(buildTranscript(events).turns.turn_1).toMatchObject({ state: "queued", position: 2 });
    expect(isTurnActive(buildTranscript(events))).toBe(true);
    const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 };
    add("turn.started", {})("turn.completed", { usage, cost: { totalUsd: 0, model: "local:scripted" } });
    const t = buildTranscript(events);
    expect(t.turns.turn_1).toMatchObject({ state: "completed", usage, cost: { totalUsd: 0 } });
    expect(isTurnActive(t)).toBe(false);
  });

  it("tells a failed turn from a cancelled one", () => {
    const { add, events } = log();
    add("message.received", { text: "hi" })("turn.started", {})("turn.failed", { message: "rate limited" });
    expect(buildTranscript(events).turns.turn_1).toMatchObject({ state: "error", message: "rate limited" });
  });

  it("places each turn's status after that turn's last item", () => {
    const { add, events } = log();
    add(
      "session.started",
      { channelId: "http", mode: "chat", purpose: "live" },
      { turnId: null },
    )("message.received", { text: "one" })("turn.started", {})("step.started", { step: 0 })("message.completed", {
      text: "A",
    })("turn.completed", {})("message.received", { text: "two" }, { turnId: "turn_2" })(
      "turn.started",
      {},
      { turnId: "turn_2" },
    );
    const blocks = transcriptBlocks(buildTranscript(events));
    expect(blocks.map((block) => (block.kind === "turn" ? `turn:${block.turn.turnId}` : block.item.kind))).toEqual([
      "user",
      "assistant",
      "turn:turn_1",
      "user",
      "turn:turn_2",
    ]);
  });
});

it("knows a task session and a dry run from session.started", () => {
  const { add, events } = log();
  add(
    "session.started",
    { channelId: "http", mode: "task", purpose: "live", dryRun: true, title: "Nightly" },
    { turnId: null },
  );
  expect(buildTranscript(events).session).toEqual({ mode: "task", purpose: "live", dryRun: true, title: "Nightly" });
});

it("knows an eval session from session.started", () => {
  const { add, events } = log();
  add("session.started", { channelId: "eval", mode: "chat", purpose: "eval" }, { turnId: null });
  expect(buildTranscript(events).session).toMatchObject({ mode: "chat", purpose: "eval" });
});

it("starts empty", () => {
  expect(emptyTranscript).toMatchObject({ lastIndex: -1, items: [] });
});
