"use client";
// The agent page's Evals: its runs newest first (GET …/dev/evals/runs, read again every few seconds,
// so a run's progress and runs started elsewhere show), the pass rate of each case across versions,
// and two chosen runs side by side.
import { useEffect, useMemo, useState } from "react";
import type { EvalRun } from "@/server/evals/schema";
import { createApiClient } from "@/components/playground/api-client";
import { formatDuration, formatPassRate } from "@/components/playground/eval-run-model";
import { statusTone } from "@/components/playground/eval-run-view";
import { useEvalRuns } from "@/components/playground/use-evals";
import { Badge } from "@/components/ui/badge";
import { Card, ErrorNote } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { type ChartGrouping, passRateSeries } from "./eval-history-model";
import { PassRateChart } from "./eval-pass-rate-chart";
import { RunComparison } from "./eval-run-comparison";

const runLimit = 50;

/** How often the runs are read again: a running run's progress, or a run started elsewhere (the CLI). */
const pollMs = { running: 2_000, idle: 10_000 };

export function EvalHistoryCard({ slug }: { slug: string }) {
  const client = useMemo(() => createApiClient(slug, ""), [slug]);
  const [refresh, setRefresh] = useState(0);
  const { runs, error } = useEvalRuns(client, refresh, runLimit);
  const isRunning = runs?.some((run) => run.status === "running") ?? false;
  useEffect(() => {
    const timer = setInterval(() => setRefresh((n) => n + 1), isRunning ? pollMs.running : pollMs.idle);
    return () => clearInterval(timer);
  }, [isRunning]);
  const [grouping, setGrouping] = useState<ChartGrouping>("version");
  const [chosen, setChosen] = useState<{ a?: string; b?: string }>({});
  const series = useMemo(() => passRateSeries(runs ?? [], grouping), [runs, grouping]);
  const finished = runs?.filter((run) => run.status !== "running") ?? [];
  // By default the newest finished run against the one before it.
  const b = finished.find((run) => run.id === chosen.b) ?? finished[0];
  const a = finished.find((run) => run.id === chosen.a) ?? finished.find((run) => run !== b);

  return (
    <Card aria-label="Evals" data-testid="eval-history">
      <h2 className="font-semibold">Evals</h2>
      <p className="mt-1 text-sm text-zinc-500">
        Runs of the agent's evals, from the playground's Evals tab or <code>agentfold eval</code>, newest first.
      </p>
      {error ? (
        <div className="mt-3">
          <ErrorNote testId="eval-history-error">{error}</ErrorNote>
        </div>
      ) : null}
      {runs && runs.length === 0 ? (
        <p data-testid="eval-history-empty" className="mt-3 text-sm text-zinc-500">
          No runs yet. Open the playground's Evals tab (under Inspect) to run them.
        </p>
      ) : null}
      {series.points.length > 0 ? (
        <div className="mt-4 space-y-2">
          <div className="flex items-center gap-2 text-xs">
            <span className="text-zinc-500">Pass rate per case, by</span>
            {(["version", "run"] as const).map((value) => (
              <button
                key={value}
                type="button"
                data-testid={`eval-chart-by-${value}`}
                aria-pressed={grouping === value}
                onClick={() => setGrouping(value)}
                className={cn(
                  "rounded-md border px-2 py-0.5",
                  grouping === value
                    ? "border-indigo-600 bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"
                    : "border-zinc-300 text-zinc-600 dark:border-zinc-700 dark:text-zinc-400",
                )}
              >
                {value}
              </button>
            ))}
          </div>
          <PassRateChart caseIds={series.caseIds} points={series.points} />
        </div>
      ) : null}
      {runs && runs.length > 0 ? (
        <RunsTable runs={runs} a={a} b={b} onChoose={(side, id) => setChosen((c) => ({ ...c, [side]: id }))} />
      ) : null}
      {a && b ? (
        <div className="mt-4 space-y-2">
          <h3 className="text-sm font-semibold">Side by side: A then B</h3>
          <RunComparison client={client} slug={slug} a={a} b={b} />
        </div>
      ) : finished.length === 1 ? (
        <p className="mt-3 text-sm text-zinc-500">Run the evals again to compare two runs side by side.</p>
      ) : null}
    </Card>
  );
}

function RunsTable({
  runs,
  a,
  b,
  onChoose,
}: {
  runs: EvalRun[];
  a?: EvalRun;
  b?: EvalRun;
  onChoose: (side: "a" | "b", runId: string) => void;
}) {
  return (
    <div className="mt-4 max-h-72 overflow-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-zinc-500">
          <tr>
            <th className="py-1 pr-2 font-medium">A</th>
            <th className="py-1 pr-2 font-medium">B</th>
            <th className="py-1 pr-3 font-medium">Started</th>
            <th className="py-1 pr-3 font-medium">Version</th>
            <th className="py-1 pr-3 font-medium">Status</th>
            <th className="py-1 pr-3 font-medium">Passed</th>
            <th className="py-1 pr-3 font-medium">By</th>
            <th className="py-1 pr-3 font-medium">Took</th>
            <th className="py-1 font-medium">Cost</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
          {runs.map((run) => {
            const isRunning = run.status === "running";
            const when = new Date(run.createdAt).toLocaleString();
            return (
              <tr key={run.id} data-testid="eval-history-run" data-run-id={run.id} data-status={run.status}>
                {(["a", "b"] as const).map((side) => (
                  <td key={side} className="py-1.5 pr-2">
                    <input
                      type="radio"
                      name={`eval-compare-${side}`}
                      aria-label={`Compare the run of ${when} as ${side.toUpperCase()}`}
                      data-testid={`eval-history-pick-${side}`}
                      disabled={isRunning}
                      checked={(side === "a" ? a : b)?.id === run.id}
                      onChange={() => onChoose(side, run.id)}
                    />
                  </td>
                ))}
                <td className="py-1.5 pr-3 whitespace-nowrap">{when}</td>
                <td className="py-1.5 pr-3">v{run.versionNumber ?? "?"}</td>
                <td className="py-1.5 pr-3">
                  <Badge tone={statusTone[run.status]}>{run.status}</Badge>
                </td>
                <td className="py-1.5 pr-3 whitespace-nowrap">
                  {run.counts.passed}/{run.counts.total} · {formatPassRate(run.passRate)}
                </td>
                <td className="py-1.5 pr-3">{run.startedBy}</td>
                <td className="py-1.5 pr-3">{formatDuration(run.durationMs)}</td>
                <td className="py-1.5">${run.costUsd.toFixed(4)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
