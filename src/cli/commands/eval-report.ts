// What `agentfold eval` prints on stderr while a run goes on: a line per case once all its
// iterations finished (✓ or ✗, its time, each failed assertion's message under it), on a terminal
// a status line below them, and a summary at the end.
import path from "node:path";
import type { EvalResult, EvalRun } from "@/server/evals/schema";

const isFinished = (r: EvalResult) => r.status === "passed" || r.status === "failed" || r.status === "error";

/** A path as the person typed it, more or less: relative when it is under the working directory. */
export function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), path.resolve(file));
  return relative.startsWith("..") || path.isAbsolute(relative) ? path.resolve(file) : relative || ".";
}

/** `1 case`, `2 cases`. */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The lines of one case: its verdict, then what went wrong in each iteration that did not pass. */
export function caseLines(caseId: string, results: EvalResult[], iterations = results.length): string[] {
  const ordered = [...results].sort((a, b) => a.iteration - b.iteration);
  const passed = ordered.filter((r) => r.status === "passed").length;
  const finished = ordered.filter(isFinished);
  const mean = finished.reduce((sum, r) => sum + (r.durationMs ?? 0), 0) / Math.max(finished.length, 1);
  const count = Math.max(iterations, ordered.length, 1);
  const many = count > 1;
  const verdict = passed === count ? "✓" : "✗";
  const tally = many ? `  ${passed}/${count} passed` : ordered[0]?.status === "error" ? "  error" : "";
  const unfinished = count - finished.length;
  const time = finished.length ? `  ${formatSeconds(mean)}${many ? " each" : ""}` : "";
  const head = `${verdict} ${caseId}${tally}${unfinished ? `  (${unfinished} did not finish)` : ""}${time}`;
  // The same problem in several iterations is one line naming them.
  const problems = new Map<string, number[]>();
  for (const r of ordered) {
    const messages = [
      ...r.assertions.filter((a) => !a.pass).map((a) => a.message),
      ...(r.error ? [`error: ${r.error}`] : []),
    ];
    for (const message of messages) problems.set(message, [...(problems.get(message) ?? []), r.iteration]);
  }
  const details = [...problems].map(
    ([message, iterations]) =>
      `    ${indent(message)}${many ? `  (${iterations.map((i) => `#${i}`).join(", ")})` : ""}`,
  );
  return [head, ...details];
}

/** A message of several lines stays under its case. */
const indent = (message: string) => message.replace(/\r?\n/g, "\n    ");

export function summaryLine(run: EvalRun, results: EvalResult[]): string {
  const { passed, failed, errored } = run.counts;
  const cases = new Set(results.map((r) => r.caseId)).size;
  const parts = [
    `${passed} passed, ${failed} failed, ${errored} errored`,
    `${plural(results.length, "result")} of ${plural(cases, "case")}`,
    ...(results.length > cases && run.passRate !== null ? [`pass rate ${Math.round(run.passRate * 100)}%`] : []),
    ...(run.durationMs !== null ? [formatSeconds(run.durationMs)] : []),
    ...(run.tokens.input + run.tokens.output > 0
      ? [`${run.tokens.input.toLocaleString("en")} in / ${run.tokens.output.toLocaleString("en")} out tokens`]
      : []),
    ...(run.costUsd > 0 ? [`$${run.costUsd.toFixed(4)}`] : []),
  ];
  return `run ${run.status === "error" ? "errored" : run.status}: ${parts.join(" · ")}`;
}

export type Progress = {
  /** A result as it changes (started, finished); a case's line is printed once all its iterations finished. */
  update(result: EvalResult): void;
  /** The run's end: the cases not printed yet (they did not finish), then the summary. */
  finish(run: EvalRun, results: EvalResult[]): void;
};

export function createProgress(options: {
  write: (text: string) => void;
  /** A terminal: a status line is kept below the case lines, rewritten in place. */
  isTTY: boolean;
  /** The run's cases and how many iterations each has (the start's answer). */
  cases: { id: string; iterations: number }[];
}): Progress {
  const { write, isTTY } = options;
  const expected = new Map(options.cases.map((c) => [c.id, c.iterations]));
  const total = options.cases.reduce((sum, c) => sum + c.iterations, 0);
  const latest = new Map<string, Map<number, EvalResult>>();
  const printed = new Set<string>();
  let status = "";

  const resultsOf = (caseId: string) => [...(latest.get(caseId)?.values() ?? [])];
  const finishedCount = () => [...latest.values()].reduce((n, m) => n + [...m.values()].filter(isFinished).length, 0);
  const running = () =>
    [...latest.entries()].flatMap(([id, m]) => ([...m.values()].some((r) => r.status === "running") ? [id] : []));

  function print(lines: string[], redraw = true): void {
    // The status line is cleared first and drawn again below what was printed.
    if (status) write("\r\x1b[2K");
    write(`${lines.join("\n")}\n`);
    status = "";
    if (isTTY && redraw) drawStatus();
  }

  function drawStatus(): void {
    const now = running();
    const more = now.length > 3 ? ` +${now.length - 3}` : "";
    const names = now.length ? `, running ${now.slice(0, 3).join(", ")}${more}` : "";
    status = `… ${finishedCount()}/${total} done${names}`;
    write(`\r\x1b[2K${status}`);
  }

  return {
    update(result) {
      const byIteration = latest.get(result.caseId) ?? new Map<number, EvalResult>();
      byIteration.set(result.iteration, result);
      latest.set(result.caseId, byIteration);
      const results = resultsOf(result.caseId);
      const iterations = expected.get(result.caseId) ?? 1;
      if (!printed.has(result.caseId) && results.filter(isFinished).length >= iterations) {
        printed.add(result.caseId);
        print(caseLines(result.caseId, results, iterations));
      } else if (isTTY) drawStatus();
    },
    finish(run, results) {
      for (const r of results) {
        const byIteration = latest.get(r.caseId) ?? new Map<number, EvalResult>();
        byIteration.set(r.iteration, r);
        latest.set(r.caseId, byIteration);
      }
      const left = [...new Set([...expected.keys(), ...latest.keys()])].filter((id) => !printed.has(id));
      for (const caseId of left) printed.add(caseId);
      const lines = left.flatMap((caseId) => caseLines(caseId, resultsOf(caseId), expected.get(caseId)));
      print([...lines, summaryLine(run, results)], false);
    },
  };
}
