// An eval run as the Evals tab shows it: the run and its latest result per case and iteration,
// folded from GET …/dev/evals/runs/:id and the lines of its stream, then grouped per case.
import type { EvalResult, EvalRun, EvalStreamLine } from "@/server/evals/schema";

export type EvalRunView = { run: EvalRun; results: Record<string, EvalResult> };

export type CaseStatus = EvalResult["status"];

export type CaseRow = {
  caseId: string;
  status: CaseStatus;
  /** Finished iterations that passed, over the iterations the case runs. */
  passed: number;
  total: number;
  /** Summed over finished iterations; null before any. */
  durationMs: number | null;
  iterations: EvalResult[];
};

const resultKey = (result: Pick<EvalResult, "caseId" | "iteration">) => `${result.caseId}#${result.iteration}`;

export function isRunFinished(run: EvalRun): boolean {
  return run.status !== "running";
}

export function viewOf(run: EvalRun, results: readonly EvalResult[]): EvalRunView {
  return { run, results: Object.fromEntries(results.map((result) => [resultKey(result), result])) };
}

/** Folds one stream line in. A line about another run (a stale stream) changes nothing. */
export function applyEvalLine(view: EvalRunView | undefined, line: EvalStreamLine): EvalRunView | undefined {
  if (line.type === "run") {
    if (view && view.run.id !== line.run.id) return view;
    return { run: line.run, results: view?.results ?? {} };
  }
  if (!view || view.run.id !== line.result.runId) return view;
  return { ...view, results: { ...view.results, [resultKey(line.result)]: line.result } };
}

/** A stream line, or undefined for anything else (heartbeats, a newer kind of line). An error line
 * is the server's word that the stream failed. */
export function parseEvalLine(text: string): EvalStreamLine | { type: "error"; message: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const line = value as { type?: unknown; run?: { id?: unknown }; result?: { caseId?: unknown }; message?: unknown };
  if (line.type === "run" && typeof line.run?.id === "string") return value as EvalStreamLine;
  if (line.type === "result" && typeof line.result?.caseId === "string") return value as EvalStreamLine;
  if (line.type === "error") return { type: "error", message: String(line.message ?? "the run's stream failed") };
  return undefined;
}

function statusOf(iterations: readonly EvalResult[]): CaseStatus {
  const statuses = new Set(iterations.map((result) => result.status));
  if (statuses.has("running") || statuses.has("pending")) {
    return statuses.has("running") || iterations.some((result) => result.finishedAt) ? "running" : "pending";
  }
  if (statuses.has("error")) return "error";
  return statuses.has("failed") ? "failed" : "passed";
}

/** One row per case, in the order the run lists them (its byCase), then any the results add. */
export function caseRows(view: EvalRunView): CaseRow[] {
  const byCase = new Map<string, EvalResult[]>(Object.keys(view.run.byCase).map((id) => [id, []]));
  for (const result of Object.values(view.results)) {
    byCase.set(result.caseId, [...(byCase.get(result.caseId) ?? []), result]);
  }
  return [...byCase].map(([caseId, results]) => {
    const iterations = results.toSorted((a, b) => a.iteration - b.iteration);
    const finished = iterations.filter((result) => result.durationMs !== null);
    return {
      caseId,
      status: iterations.length ? statusOf(iterations) : "pending",
      passed: iterations.filter((result) => result.status === "passed").length,
      total: Math.max(view.run.byCase[caseId]?.total ?? 0, iterations.length),
      durationMs: finished.length ? finished.reduce((sum, result) => sum + result.durationMs!, 0) : null,
      iterations,
    };
  });
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return "–";
  if (ms < 1000) return `${ms} ms`;
  return ms < 60_000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatPassRate(rate: number | null): string {
  return rate === null ? "–" : `${Math.round(rate * 100)}%`;
}
