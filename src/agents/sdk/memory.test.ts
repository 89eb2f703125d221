import { describe, expect, it } from "vitest";
import { descriptorKindOf } from "./descriptor";
import type { SessionEvent } from "./events";
import type { HookContext } from "./hooks";
import type { JsonValue } from "./types";
import { memoryHook, memoryJournalEntry, memoryJournalPath } from "./memory";

function fakeContext(purpose: "live" | "eval" = "live") {
  const kv = new Map<string, JsonValue>();
  const appended: { path: string; content: string; scope?: string }[] = [];
  const ctx = {
    session: {
      id: "ses_1",
      channelId: "http",
      mode: "chat",
      purpose,
      auth: { kind: "local", id: "me" },
      title: "Refunds",
    },
    host: {
      kv: {
        get: async (key: string) => kv.get(key),
        put: async (key: string, value: JsonValue) => void kv.set(key, value),
        delete: async (key: string) => void kv.delete(key),
        list: async () => [...kv.keys()],
      },
      files: {
        append: async (path: string, content: string, options?: { scope?: string }) =>
          void appended.push({ path, content, scope: options?.scope }),
      },
    },
  } as unknown as HookContext;
  return { ctx, kv, appended };
}

const at = "2024-01-01T00:00:00.000Z";
const ev = (type: string, data: unknown, index = 0) =>
  ({ type, index, sessionId: "ses_1", turnId: "turn_1", at, data }) as SessionEvent;

async function dispatch(ctx: HookContext, events: SessionEvent[]) {
  const hook = memoryHook();
  for (const event of events) {
    const handler = hook.events[event.type] as ((e: SessionEvent, c: HookContext) => Promise<void>) | undefined;
    await handler?.(event, ctx);
  }
}

describe("memoryHook", () => {
  it("is a hook on message and turn events", () => {
    const hook = memoryHook();
    expect(descriptorKindOf(hook)).toBe("hook");
    expect(Object.keys(hook.events).sort()).toEqual([
      "message.completed",
      "message.received",
      "turn.completed",
      "turn.failed",
    ]);
  });

  it("appends one deployment-wide journal line per finished turn and forgets the pending turn", async () => {
    const { ctx, kv, appended } = fakeContext();
    const usage = { inputTokens: 10, outputTokens: 4, cacheReadTokens: 1, cacheWriteTokens: 0, reasoningTokens: 3 };
    await dispatch(ctx, [
      ev("message.received", { text: "refund 42" }),
      ev("message.completed", { text: "Refunded." }),
      ev("turn.completed", { usage }),
    ]);
    expect(appended).toHaveLength(1);
    expect(appended[0]?.path).toBe(memoryJournalPath);
    expect(appended[0]?.scope).toBe("deployment");
    expect(appended[0]?.content.endsWith("\n")).toBe(true);
    expect(JSON.parse(appended[0]?.content ?? "")).toEqual({
      at,
      sessionId: "ses_1",
      channelId: "http",
      status: "completed",
      title: "Refunds",
      userMessage: "refund 42",
      result: "Refunded.",
      usage: { inputTokens: 10, outputTokens: 4, cacheReadTokens: 1, cacheWriteTokens: 0 },
    });
    expect(kv.size).toBe(0);
  });

  it("pairs a preempted turn with its own message, not the one that interrupted it", async () => {
    const { ctx, appended } = fakeContext();
    await dispatch(ctx, [
      ev("message.received", { text: "first" }),
      ev("message.received", { text: "second" }),
      ev("turn.failed", { message: "turn interrupted", status: "cancelled" }),
      ev("message.completed", { text: "answer two" }),
      ev("turn.completed", { result: { ok: true } }),
    ]);
    const lines = appended.map((entry) => JSON.parse(entry.content));
    expect(lines.map((line) => [line.status, line.userMessage, line.result])).toEqual([
      ["failed", "first", "turn interrupted"],
      ["completed", "second", { ok: true }],
    ]);
  });

  it("leaves eval sessions out of the journal", async () => {
    const { ctx, kv, appended } = fakeContext("eval");
    await dispatch(ctx, [ev("message.received", { text: "hi" }), ev("turn.completed", {})]);
    expect(appended).toHaveLength(0);
    expect(kv.size).toBe(0);
  });
});

describe("memoryJournalEntry", () => {
  it("uses nulls for what it does not know", () => {
    const { ctx } = fakeContext();
    const entry = memoryJournalEntry(ev("turn.completed", {}) as never, {
      session: { ...ctx.session, title: undefined },
    });
    expect(entry).toMatchObject({ title: null, userMessage: null, result: null, usage: null });
  });
});
