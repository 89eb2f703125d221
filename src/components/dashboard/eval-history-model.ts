// The agent page's eval history, computed: pass rate per case across versions (or runs) for the
// chart, which cases changed between two runs, and each case's trajectory (tool calls and wall
// time) read from its eval sessions' logs.
import type { SessionEvent } from "@/agents/sdk/events";
import type { EvalResult, EvalRun } from "@/server/evals/schema";

export type ChartGrouping = "version" | "run";

/** One x position: a version (its runs pooled) or a run; a case's percentage, or null without results. */
export type PassRatePoint = { key: string; label: string; values: Record<string, number | null> };

/** Oldest first; runs still going are left out (their rates would move). */
export function passRateSeries(runsNewestFirst: readonly EvalRun[], grouping: ChartGrouping) {
  const runs = runsNewestFirst.filter((run) => run.status !== "running").toReversed();
  const groups = new Map<string, { label: string; runs: EvalRun[] }>();
  for (const [i, run] of runs.entries()) {
    const key = grouping === "version" ? run.versionId : run.id;
    const version = `v${run.versionNumber ?? "?"}`;
    const label = grouping === "version" ? version : `${version} #${i + 1}`;
    groups.set(key, { label, runs: [...(groups.get(key)?.runs ?? []), run] });
  }
  const caseIds = [...new Set(runs.flatMap((run) => Object.keys(run.byCase)))].sort();
  const points: PassRatePoint[] = [...groups].map(([key, group]) => ({
    key,
    label: group.label,
    values: Object.fromEntries(
      caseIds.map((caseId) => {
        const tallies = group.runs.flatMap((run) => (run.byCase[caseId] ? [run.byCase[caseId]] : []));
        const total = tallies.reduce((sum, tally) => sum + tally.total, 0);
        const passed = tallies.reduce((sum, tally) => sum + tally.passed, 0);
        return [caseId, total ? Math.round((passed / total) * 100) : null];
      }),
    ),
  }));
  return { caseIds, points };
}

export type CaseOutcome = "passed" | "failed" | "mixed" | "error" | "unfinished";

export type CaseSide = { outcome: CaseOutcome; passed: number; total: number; results: EvalResult[] };

export type CaseChange = {
  caseId: string;
  a?: CaseSide;
  b?: CaseSide;
  /** better / worse by pass rate; added / removed when one run lacks the case. */
  direction: "better" | "worse" | "same" | "added" | "removed";
};

function sideOf(results: EvalResult[]): CaseSide {
  const passed = results.filter((result) => result.status === "passed").length;
  const isUnfinished = results.some((result) => result.status === "pending" || result.status === "running");
  const outcome: CaseOutcome = isUnfinished
    ? "unfinished"
    : passed === results.length
      ? "passed"
      : passed > 0
        ? "mixed"
        : results.some((result) => result.status === "error")
          ? "error"
          : "failed";
  return { outcome, passed, total: results.length, results: results.toSorted((x, y) => x.iteration - y.iteration) };
}

function byCase(results: readonly EvalResult[]): Map<string, CaseSide> {
  const grouped = new Map<string, EvalResult[]>();
  for (const result of results) grouped.set(result.caseId, [...(grouped.get(result.caseId) ?? []), result]);
  return new Map([...grouped].map(([caseId, list]) => [caseId, sideOf(list)]));
}

const rank = { worse: 0, better: 1, added: 2, removed: 3, same: 4 } as const;

/** Every case of either run, what changed first: worse, better, added, removed, then the same. */
export function compareRuns(aResults: readonly EvalResult[], bResults: readonly EvalResult[]): CaseChange[] {
  const a = byCase(aResults);
  const b = byCase(bResults);
  const caseIds = [...new Set([...a.keys(), ...b.keys()])].sort();
  const rows = caseIds.map((caseId): CaseChange => {
    const [before, after] = [a.get(caseId), b.get(caseId)];
    if (!before) return { caseId, b: after, direction: "added" };
    if (!after) return { caseId, a: before, direction: "removed" };
    const delta = after.passed / after.total - before.passed / before.total;
    const direction = delta > 0 ? "better" : delta < 0 ? "worse" : "same";
    return { caseId, a: before, b: after, direction };
  });
  return rows.sort((x, y) => rank[x.direction] - rank[y.direction]);
}

export function outcomeLabel(side: CaseSide | undefined): string {
  if (!side) return "not run";
  return side.outcome === "mixed" ? `${side.passed}/${side.total} passed` : side.outcome;
}

export type Trajectory = { toolCalls: string[]; wallMs: number | null; turns: number };

/** Tool calls (a subagent's own left out) and the time turns took, from the start of each turn to its end. */
export function trajectoryOf(events: readonly SessionEvent[]): Trajectory {
  const toolCalls = events.flatMap((event) =>
    event.type === "actions.requested"
      ? event.data.calls.filter((call) => !call.parentCallId).map((call) => call.toolName)
      : [],
  );
  const starts = new Map<string, number>();
  let wallMs: number | null = null;
  for (const event of events) {
    if (!event.turnId) continue;
    if (!starts.has(event.turnId)) starts.set(event.turnId, Date.parse(event.at));
    if (event.type === "turn.completed" || event.type === "turn.failed") {
      wallMs = (wallMs ?? 0) + Date.parse(event.at) - starts.get(event.turnId)!;
    }
  }
  return { toolCalls, wallMs, turns: events.filter((event) => event.type === "message.received").length };
}

/** One iteration's sessions as one trajectory: calls in order, times added. */
export function joinTrajectories(trajectories: readonly Trajectory[]): Trajectory {
  const timed = trajectories.filter((t) => t.wallMs !== null);
  return {
    toolCalls: trajectories.flatMap((t) => t.toolCalls),
    wallMs: timed.length ? timed.reduce((sum, t) => sum + t.wallMs!, 0) : null,
    turns: trajectories.reduce((sum, t) => sum + t.turns, 0),
  };
}

/** `lookup_order ×2 → issue_refund`: runs of one tool folded. */
export function formatToolCalls(toolCalls: readonly string[]): string {
  if (toolCalls.length === 0) return "no tool calls";
  const runs: { name: string; count: number }[] = [];
  for (const name of toolCalls) {
    const last = runs.at(-1);
    if (last?.name === name) last.count++;
    else runs.push({ name, count: 1 });
  }
  return runs.map(({ name, count }) => (count > 1 ? `${name} ×${count}` : name)).join(" → ");
}
