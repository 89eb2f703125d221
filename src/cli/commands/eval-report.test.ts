import { describe, expect, it } from "vitest";
import type { EvalResult, EvalRun } from "@/server/evals/schema";
import { createProgress, summaryLine } from "./eval-report";

function result(caseId: string, iteration: number, patch: Partial<EvalResult> = {}): EvalResult {
  return {
    runId: "evr_1",
    caseId,
    iteration,
    status: "passed",
    assertions: [],
    error: null,
    sessionIds: [],
    tokens: { input: 0, output: 0 },
    costUsd: 0,
    durationMs: 1_250,
    startedAt: "2026-01-01T00:00:00.000Z",
    finishedAt: "2026-01-01T00:00:01.250Z",
    ...patch,
  };
}

const failing = (message: string) => ({
  status: "failed" as const,
  assertions: [{ kind: "check" as const, pass: false, message }],
});

function run(patch: Partial<EvalRun> = {}): EvalRun {
  return {
    id: "evr_1",
    versionId: "v",
    versionNumber: 1,
    status: "failed",
    startedBy: "the CLI",
    createdAt: "2026-01-01T00:00:00.000Z",
    finishedAt: "2026-01-01T00:00:04.000Z",
    selection: {},
    counts: { total: 6, pending: 0, running: 0, passed: 3, failed: 3, errored: 0 },
    passRate: 0.5,
    byCase: {},
    tokens: { input: 1_200, output: 340 },
    costUsd: 0.0123,
    durationMs: 4_000,
    ...patch,
  };
}

function capture(isTTY: boolean, cases: { id: string; iterations: number }[]) {
  let out = "";
  const progress = createProgress({ write: (text) => (out += text), isTTY, cases });
  return { progress, out: () => out };
}

describe("the progress of an eval run", () => {
  it("prints a case once every iteration of it finished, with the failures under it", () => {
    const { progress, out } = capture(false, [
      { id: "refunds/asks", iterations: 1 },
      { id: "timing", iterations: 3 },
    ]);
    progress.update(result("refunds/asks", 1, { status: "running", durationMs: null }));
    progress.update(result("timing", 1, failing("expected a call to lookup")));
    expect(out()).toBe("");
    progress.update(result("refunds/asks", 1));
    expect(out()).toBe("✓ refunds/asks  1.3 s\n");
    progress.update(result("timing", 2, { status: "error", error: "the provider answered 401" }));
    progress.update(result("timing", 3, failing("expected a call to lookup")));
    expect(out().split("\n").slice(1)).toEqual([
      "✗ timing  0/3 passed  1.3 s each",
      "    expected a call to lookup  (#1, #3)",
      "    error: the provider answered 401  (#2)",
      "",
    ]);
  });

  it("keeps a status line below the cases on a terminal, and none elsewhere", () => {
    const tty = capture(true, [
      { id: "a", iterations: 1 },
      { id: "b", iterations: 1 },
    ]);
    tty.progress.update(result("a", 1, { status: "running" }));
    expect(tty.out()).toBe("\r\x1b[2K… 0/2 done, running a");
    tty.progress.update(result("a", 1));
    // Cleared, the case line, then the status line again.
    expect(tty.out()).toBe("\r\x1b[2K… 0/2 done, running a\r\x1b[2K✓ a  1.3 s\n\r\x1b[2K… 1/2 done");
    const plain = capture(false, [{ id: "a", iterations: 1 }]);
    plain.progress.update(result("a", 1, { status: "running" }));
    plain.progress.update(result("a", 1));
    expect(plain.out()).toBe("✓ a  1.3 s\n");
  });

  it("ends with the cases that did not finish and a summary", () => {
    const { progress, out } = capture(false, [
      { id: "a", iterations: 2 },
      { id: "never", iterations: 1 },
    ]);
    progress.update(result("a", 1));
    progress.finish(run({ status: "error" }), [result("a", 1), result("a", 2, { status: "running" })]);
    expect(out().split("\n")).toEqual([
      "✗ a  1/2 passed  (1 did not finish)  1.3 s each",
      "✗ never  (1 did not finish)",
      "run errored: 3 passed, 3 failed, 0 errored · 2 results of 1 case · pass rate 50% · 4.0 s · 1,200 in / 340 out tokens · $0.0123",
      "",
    ]);
  });
});

describe("summaryLine", () => {
  it("leaves out what a run did not have", () => {
    const free = run({
      status: "passed",
      counts: { total: 1, pending: 0, running: 0, passed: 1, failed: 0, errored: 0 },
      tokens: { input: 0, output: 0 },
      costUsd: 0,
      passRate: 1,
    });
    expect(summaryLine(free, [result("a", 1)])).toBe(
      "run passed: 1 passed, 0 failed, 0 errored · 1 result of 1 case · 4.0 s",
    );
  });
});
