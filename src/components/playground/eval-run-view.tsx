"use client";
// One eval run, followed live: its status and counts, then per case its status, pass rate over
// the iterations, duration, and per iteration each assertion (✓/✗ and its message), the error,
// and links that open its eval sessions.
import { useEffect, useRef } from "react";
import type { EvalResult, EvalRun } from "@/server/evals/schema";
import { Badge } from "@/components/ui/badge";
import { ErrorNote } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import type { ApiClient } from "./api-client";
import { type CaseRow, type CaseStatus, caseRows, formatDuration, formatPassRate } from "./eval-run-model";
import { useEvalRun } from "./use-evals";

export const statusTone = {
  pending: "neutral",
  running: "info",
  passed: "good",
  failed: "bad",
  error: "bad",
} as const satisfies Record<CaseStatus | EvalRun["status"], string>;

type Props = {
  client: ApiClient;
  runId: string;
  onOpenSession: (sessionId: string) => void;
  onSessionsChanged?: () => void;
  onFinished: () => void;
};

export function EvalRunView({ client, runId, onOpenSession, onSessionsChanged, onFinished }: Props) {
  const { view, status, error } = useEvalRun(client, runId);
  const sessionCount = view ? Object.values(view.results).reduce((sum, r) => sum + r.sessionIds.length, 0) : 0;
  const seenSessions = useRef(0);
  const wasLive = useRef(false);
  useEffect(() => {
    if (sessionCount > seenSessions.current) onSessionsChanged?.();
    seenSessions.current = sessionCount;
  }, [sessionCount, onSessionsChanged]);
  useEffect(() => {
    // Only a run seen running and then finishing changes the list of runs.
    if (status === "live") wasLive.current = true;
    else if (status === "finished" && wasLive.current) {
      wasLive.current = false;
      onFinished();
    }
  }, [status, onFinished]);

  if (!view)
    return error ? <ErrorNote testId="eval-run-error">{error}</ErrorNote> : <p className="text-sm">Loading…</p>;
  const { run } = view;
  return (
    <div data-testid="eval-run" data-run-id={run.id} data-status={run.status} className="space-y-2">
      {error ? <ErrorNote testId="eval-run-error">{error}</ErrorNote> : null}
      <RunSummary run={run} />
      <ol className="space-y-2">
        {caseRows(view).map((row) => (
          <CaseResult key={row.caseId} row={row} onOpenSession={onOpenSession} />
        ))}
      </ol>
    </div>
  );
}

function RunSummary({ run }: { run: EvalRun }) {
  const { counts } = run;
  const finished = counts.passed + counts.failed + counts.errored;
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
      <Badge tone={statusTone[run.status]}>{run.status}</Badge>
      <span data-testid="eval-run-counts">
        {counts.passed}/{counts.total} passed
        {counts.failed ? ` · ${counts.failed} failed` : ""}
        {counts.errored ? ` · ${counts.errored} could not run` : ""}
        {finished < counts.total ? ` · ${counts.total - finished} to go` : ""}
      </span>
      {run.passRate === null ? null : <span>{formatPassRate(run.passRate)}</span>}
      <span>v{run.versionNumber ?? "?"}</span>
      <span>by {run.startedBy}</span>
      {run.durationMs === null ? null : <span>{formatDuration(run.durationMs)}</span>}
      <span title="input / output tokens">
        {run.tokens.input + run.tokens.output} tokens · ${run.costUsd.toFixed(4)}
      </span>
    </div>
  );
}

function CaseResult({ row, onOpenSession }: { row: CaseRow; onOpenSession: (sessionId: string) => void }) {
  return (
    <li
      data-testid="eval-result"
      data-case-id={row.caseId}
      data-status={row.status}
      className="rounded-md border border-zinc-200 p-2 text-sm dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={statusTone[row.status]}>{row.status}</Badge>
        <code className="min-w-0 flex-1 truncate font-mono text-xs font-medium">{row.caseId}</code>
        <span data-testid="eval-pass-rate" className="text-xs text-zinc-500">
          {row.passed}/{row.total} passed
        </span>
        <span className="text-xs text-zinc-500">{formatDuration(row.durationMs)}</span>
      </div>
      {row.iterations.map((result) => (
        <Iteration key={result.iteration} result={result} isOneOfMany={row.total > 1} onOpenSession={onOpenSession} />
      ))}
    </li>
  );
}

function Iteration({
  result,
  isOneOfMany,
  onOpenSession,
}: {
  result: EvalResult;
  isOneOfMany: boolean;
  onOpenSession: (sessionId: string) => void;
}) {
  return (
    <div
      data-testid="eval-iteration"
      data-iteration={result.iteration}
      data-status={result.status}
      className={cn("mt-1.5 space-y-1", isOneOfMany && "border-l border-zinc-200 pl-2 dark:border-zinc-800")}
    >
      {isOneOfMany ? (
        <p className="text-xs text-zinc-500">
          #{result.iteration} · {result.status} · {formatDuration(result.durationMs)}
        </p>
      ) : null}
      {result.assertions.length ? (
        <ul className="space-y-0.5">
          {result.assertions.map((assertion, i) => (
            <li
              // Assertions have no id; their order is the test's, and it never changes.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above.
              key={i}
              data-testid="eval-assertion"
              data-pass={assertion.pass}
              data-kind={assertion.kind}
              className={cn(
                "flex gap-1.5 text-xs",
                assertion.pass ? "text-emerald-700 dark:text-emerald-400" : "text-rose-700 dark:text-rose-400",
              )}
            >
              <span aria-hidden>{assertion.pass ? "✓" : "✗"}</span>
              <span className="sr-only">{assertion.pass ? "passed:" : "failed:"}</span>
              <span className="text-zinc-500">{assertion.kind}</span>
              <span className="min-w-0 break-words">{assertion.message}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {result.error ? (
        <p data-testid="eval-error" className="text-xs whitespace-pre-wrap text-rose-700 dark:text-rose-400">
          {result.error}
        </p>
      ) : null}
      {result.sessionIds.length ? (
        <p className="flex flex-wrap gap-2 text-xs">
          {result.sessionIds.map((sessionId, i) => (
            <a
              key={sessionId}
              href={`?sessionId=${encodeURIComponent(sessionId)}`}
              data-testid="eval-session-link"
              data-session-id={sessionId}
              className="text-indigo-600 underline dark:text-indigo-400"
              onClick={(event) => {
                // A plain click opens it beside the tab; a middle click, a new tab.
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                onOpenSession(sessionId);
              }}
            >
              {result.sessionIds.length > 1 ? `session ${i + 1}` : "open session"}
            </a>
          ))}
        </p>
      ) : null}
    </div>
  );
}
