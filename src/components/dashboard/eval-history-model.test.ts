// The eval history as the agent page draws it: pass rates pooled per version (or per run) oldest
// first, the cases two runs differ on listed first, and each case's trajectory from its logs.
import { describe, expect, it } from "vitest";
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";
import type { EvalResult, EvalRun } from "@/server/evals/schema";
import { compareRuns, formatToolCalls, joinTrajectories, passRateSeries, trajectoryOf } from "./eval-history-model";

function run(id: string, version: number, byCase: EvalRun["byCase"], status: EvalRun["status"] = "passed"): EvalRun {
  return {
    id,
    versionId: `ver_${version}`,
    versionNumber: version,
    status,
    startedBy: "ada@example.test",
    createdAt: "2026-01-01T00:00:00.000Z",
    finishedAt: "2026-01-01T00:01:00.000Z",
    selection: {},
    counts: { total: 0, pending: 0, running: 0, passed: 0, failed: 0, errored: 0 },
    passRate: null,
    byCase,
    tokens: { input: 0, output: 0 },
    costUsd: 0,
    durationMs: 1000,
  };
}

const tally = (passed: number, total: number) => ({ passed, total });

describe("passRateSeries", () => {
  // The API lists runs newest first.
  const runs = [
    run("r4", 2, { "sql/0000": tally(0, 1) }, "running"),
    run("r3", 2, { refunds: tally(3, 3), "sql/0000": tally(1, 1) }),
    run("r2", 1, { refunds: tally(1, 3) }),
    run("r1", 1, { refunds: tally(2, 3), "sql/0000": tally(0, 1) }),
  ];

  it("pools each version's finished runs, oldest version first", () => {
    expect(passRateSeries(runs, "version")).toEqual({
      caseIds: ["refunds", "sql/0000"],
      points: [
        { key: "ver_1", label: "v1", values: { refunds: 50, "sql/0000": 0 } },
        { key: "ver_2", label: "v2", values: { refunds: 100, "sql/0000": 100 } },
      ],
    });
  });

  it("gives each finished run its own point, a case it did not run left empty", () => {
    const { points } = passRateSeries(runs, "run");
    expect(points.map((point) => [point.label, point.values.refunds, point.values["sql/0000"]])).toEqual([
      ["v1 #1", 67, 0],
      ["v1 #2", 33, null],
      ["v2 #3", 100, 100],
    ]);
  });
});

function result(runId: string, caseId: string, iteration: number, status: EvalResult["status"]): EvalResult {
  return {
    runId,
    caseId,
    iteration,
    status,
    assertions: [],
    error: null,
    sessionIds: [`ses_${runId}${iteration}`],
    tokens: { input: 0, output: 0 },
    costUsd: 0,
    durationMs: 10,
    startedAt: null,
    finishedAt: null,
  };
}

describe("compareRuns", () => {
  it("lists what got worse, then better, new and gone, then the unchanged", () => {
    const a = [
      result("a", "asks", 1, "passed"),
      result("a", "explains", 1, "failed"),
      result("a", "flaky", 1, "passed"),
      result("a", "flaky", 2, "failed"),
      result("a", "gone", 1, "passed"),
      result("a", "steady", 1, "passed"),
    ];
    const b = [
      result("b", "asks", 1, "failed"),
      result("b", "explains", 1, "passed"),
      result("b", "flaky", 2, "passed"),
      result("b", "flaky", 1, "passed"),
      result("b", "new", 1, "error"),
      result("b", "steady", 1, "passed"),
    ];
    const rows = compareRuns(a, b);
    expect(rows.map((row) => [row.caseId, row.direction, row.a?.outcome, row.b?.outcome])).toEqual([
      ["asks", "worse", "passed", "failed"],
      ["explains", "better", "failed", "passed"],
      ["flaky", "better", "mixed", "passed"],
      ["new", "added", undefined, "error"],
      ["gone", "removed", "passed", undefined],
      ["steady", "same", "passed", "passed"],
    ]);
    expect(rows.find((row) => row.caseId === "flaky")!.b!.results.map((r) => r.iteration)).toEqual([1, 2]);
  });
});

function events(...specs: [type: string, data: object, atMs: number, turnId?: string][]): SessionEvent[] {
  return specs.map(([type, data, atMs, turnId], index) =>
    sessionEventSchema.parse({
      type,
      index,
      sessionId: "ses_x",
      ...(turnId ? { turnId } : {}),
      at: new Date(Date.UTC(2026, 0, 1) + atMs).toISOString(),
      data,
    }),
  );
}

describe("trajectoryOf", () => {
  it("counts the session's own tool calls and the time from each turn's start to its end", () => {
    const calls = (...names: [string, string?][]) => ({
      calls: names.map(([toolName, parentCallId], i) => ({
        callId: `c${i}${toolName}`,
        toolName,
        ...(parentCallId ? { parentCallId } : {}),
      })),
    });
    const log = events(
      ["session.started", { channelId: "eval", mode: "chat", purpose: "eval" }, 0],
      ["message.received", { text: "one" }, 1_000, "t1"],
      ["actions.requested", calls(["lookup_order"], ["lookup_order"]), 1_500, "t1"],
      ["actions.requested", calls(["task"], ["inner", "c0task"]), 1_600, "t1"],
      ["turn.completed", {}, 3_000, "t1"],
      ["message.received", { text: "two" }, 60_000, "t2"],
      ["turn.failed", { message: "boom" }, 60_500, "t2"],
      ["message.received", { text: "three" }, 70_000, "t3"],
    );
    const trajectory = trajectoryOf(log);
    expect(trajectory).toEqual({ toolCalls: ["lookup_order", "lookup_order", "task"], wallMs: 2_500, turns: 3 });
    expect(formatToolCalls(trajectory.toolCalls)).toBe("lookup_order ×2 → task");
    expect(formatToolCalls([])).toBe("no tool calls");
    expect(joinTrajectories([trajectory, { toolCalls: ["x"], wallMs: null, turns: 1 }])).toEqual({
      toolCalls: ["lookup_order", "lookup_order", "task", "x"],
      wallMs: 2_500,
      turns: 4,
    });
  });
});
