import { describe, expect, it } from "vitest";
import { barLabel, formatUsage } from "./trace-format";
import type { TraceBar } from "./trace-model";

const bar: TraceBar = {
  id: "turn_1:tool:3",
  kind: "tool",
  label: "lookup_order",
  turnId: "turn_1",
  depth: 2,
  startMs: 1600,
  endMs: 1850,
  isOpen: false,
  durationMs: 250,
  status: "ok",
  indices: [5, 6],
};

describe("trace words", () => {
  it("names a bar's kind, state, duration, start and events for a screen reader", () => {
    expect(barLabel(bar, 1000)).toBe("lookup_order: tool call, finished, 250 ms, from +600 ms, 2 events");
    const waiting = { ...bar, kind: "approval" as const, label: "Approval wait", status: "running" as const };
    expect(barLabel({ ...waiting, durationMs: undefined, indices: [7] }, 1000)).toBe(
      "Approval wait: approval wait, running, from +600 ms, 1 event",
    );
    expect(barLabel({ ...waiting, status: "error" }, 1000)).toContain("approval wait, denied, 250 ms");
    const connect = { ...bar, kind: "connection" as const, label: "Connect crm", status: "error" as const };
    expect(barLabel(connect, 1000)).toBe(
      "Connect crm: connect wait, not connected in time, 250 ms, from +600 ms, 2 events",
    );
  });

  it("adds up tokens and names the cache only when it was used", () => {
    const usage = { inputTokens: 1200, outputTokens: 34, cacheReadTokens: 0, cacheWriteTokens: 0 };
    expect(formatUsage(usage)).toBe("1,234 tokens (1,200 in · 34 out)");
    expect(formatUsage({ ...usage, cacheReadTokens: 800 })).toBe("1,234 tokens (1,200 in · 34 out · 800 cache read)");
  });
});
