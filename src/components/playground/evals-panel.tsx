"use client";
// The Evals tab: the agent's evals (GET …/dev/evals), Run per eval or case and Run all, and a run
// followed live, case by case (./eval-run-view.tsx). A run lives on the server, so the tab shows
// the newest one again after a reload or a switch of tabs.
import { useState } from "react";
import type { EvalListing, EvalSelection } from "@/server/evals/schema";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "@/components/ui/card";
import type { ApiClient } from "./api-client";
import { EvalRunView } from "./eval-run-view";
import { useEvalListing, useEvalRuns, useStartEvalRun } from "./use-evals";

export function EvalsPanel({
  client,
  onOpenSession,
  onSessionsChanged,
}: {
  client: ApiClient;
  onOpenSession: (sessionId: string) => void;
  /** Eval sessions were created: the session list has new rows to show. */
  onSessionsChanged?: () => void;
}) {
  const listing = useEvalListing(client);
  const [runsRefresh, setRunsRefresh] = useState(0);
  const { runs, error: runsError } = useEvalRuns(client, runsRefresh);
  const starter = useStartEvalRun(client);
  const [chosenRunId, setChosenRunId] = useState<string>();
  const [iterations, setIterations] = useState("");
  const runId = chosenRunId ?? runs?.[0]?.id;

  async function run(ids: string[]) {
    const count = Number.parseInt(iterations, 10);
    const selection: EvalSelection = { ids, ...(count > 0 ? { iterations: count } : {}) };
    const started = await starter.start(selection);
    if (!started) return;
    setChosenRunId(started);
    setRunsRefresh((n) => n + 1);
  }

  const evals = listing.data?.evals;
  return (
    <section data-testid="evals-panel" aria-label="Evals" className="flex h-full min-h-0 flex-col">
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-3 py-2 text-xs dark:border-zinc-800">
        <Button
          size="sm"
          data-testid="evals-run-all"
          disabled={!evals?.length || starter.isStarting}
          onClick={() => run(evals!.map((item) => item.id))}
        >
          Run all
        </Button>
        <label className="flex items-center gap-1 text-zinc-600 dark:text-zinc-400">
          Iterations
          <input
            type="number"
            min={1}
            max={100}
            placeholder="default"
            title="How many times to run each case; empty: each eval's own iterations"
            data-testid="evals-iterations"
            value={iterations}
            onChange={(event) => setIterations(event.target.value)}
            className="w-20 rounded-md border border-zinc-300 bg-white px-1.5 py-1 dark:border-zinc-700 dark:bg-zinc-900"
          />
        </label>
        {listing.data ? (
          <span className="ml-auto text-zinc-500">{listing.data.maxConcurrency} cases at a time</span>
        ) : null}
      </div>
      <div className="min-h-0 flex-1 space-y-4 overflow-y-auto p-3">
        {listing.error ? <ErrorNote testId="evals-error">{listing.error}</ErrorNote> : null}
        {starter.error ? <ErrorNote testId="evals-start-error">{starter.error}</ErrorNote> : null}
        {evals ? <EvalList evals={evals} isStarting={starter.isStarting} onRun={run} /> : null}
        {runsError ? <ErrorNote testId="eval-runs-error">{runsError}</ErrorNote> : null}
        {runId ? (
          <div className="space-y-2 border-t border-zinc-200 pt-3 dark:border-zinc-800">
            <label className="flex items-center gap-2 text-xs text-zinc-500">
              Run
              <select
                data-testid="eval-run-select"
                className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-1.5 py-1 text-xs dark:border-zinc-700 dark:bg-zinc-900"
                value={runId}
                onChange={(event) => setChosenRunId(event.target.value)}
              >
                {/* A run just started may not be in the list yet. */}
                {runs?.some((item) => item.id === runId) ? null : <option value={runId}>just started</option>}
                {runs?.map((item) => (
                  <option key={item.id} value={item.id}>
                    {new Date(item.createdAt).toLocaleString()} · v{item.versionNumber ?? "?"} · {item.status}
                  </option>
                ))}
              </select>
            </label>
            <EvalRunView
              key={runId}
              client={client}
              runId={runId}
              onOpenSession={onOpenSession}
              onSessionsChanged={onSessionsChanged}
              onFinished={() => setRunsRefresh((n) => n + 1)}
            />
          </div>
        ) : runs ? (
          <p data-testid="eval-runs-empty" className="text-sm text-zinc-500">
            No runs yet. Run an eval: its cases send real messages to the agent, in eval sessions listed with an “eval”
            badge.
          </p>
        ) : null}
      </div>
    </section>
  );
}

function EvalList({
  evals,
  isStarting,
  onRun,
}: {
  evals: EvalListing["evals"];
  isStarting: boolean;
  onRun: (ids: string[]) => void;
}) {
  if (evals.length === 0) {
    return (
      <p data-testid="evals-empty" className="text-sm text-zinc-500">
        This version has no evals. Add <code>evals/&lt;name&gt;.eval.ts</code> with <code>defineEval</code> to the
        folder and deploy it, or save a session as one (<strong>Save as eval</strong> above the transcript).
      </p>
    );
  }
  return (
    <ul data-testid="eval-list" className="space-y-2">
      {evals.map((item) => {
        const hasCases = !(item.cases.length === 1 && item.cases[0] === item.id);
        return (
          <li key={item.id} data-testid="eval" data-eval-id={item.id} className="text-sm">
            <div className="flex flex-wrap items-center gap-1.5">
              <code className="font-mono font-medium">{item.id}</code>
              {item.tags.map((tag) => (
                <Badge key={tag} tone="info">
                  {tag}
                </Badge>
              ))}
              {item.iterations > 1 ? <span className="text-xs text-zinc-500">×{item.iterations}</span> : null}
              <Button
                size="sm"
                variant="secondary"
                className="ml-auto"
                data-testid="eval-start"
                aria-label={`Run ${item.id}`}
                disabled={isStarting}
                onClick={() => onRun([item.id])}
              >
                Run
              </Button>
            </div>
            {item.description ? <p className="text-xs text-zinc-500">{item.description}</p> : null}
            {hasCases ? (
              <ul className="mt-1 space-y-0.5 border-l border-zinc-200 pl-3 dark:border-zinc-800">
                {item.cases.map((caseId) => (
                  <li
                    key={caseId}
                    data-testid="eval-case-item"
                    data-case-id={caseId}
                    className="flex items-center gap-2 text-xs"
                  >
                    <code className="min-w-0 truncate font-mono">{caseId}</code>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="ml-auto"
                      data-testid="eval-case-start"
                      aria-label={`Run ${caseId}`}
                      disabled={isStarting}
                      onClick={() => onRun([caseId])}
                    >
                      Run
                    </Button>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
