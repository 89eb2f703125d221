// JUnit XML of an eval run, for CI systems that show test reports (`agentfold eval --junit <file>`):
// one <testsuite> per eval file, one <testcase> per case and iteration (docs/evals.md, "In CI").
import type { EvalListing, EvalResult, EvalRun } from "@/server/evals/schema";

// Characters XML 1.0 cannot carry even as references: C0 controls other than tab, newline and
// carriage return, lone surrogates, U+FFFE and U+FFFF. A model's reply may contain any of them.
const notXmlChar =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What a string becomes in the report: the characters XML cannot carry replaced by U+FFFD. */
export function xmlSafe(text: string): string {
  return text.replace(notXmlChar, "\uFFFD");
}

/** Text content: `\r` as a reference, since parsers turn a raw CR LF into LF. */
function escapeText(text: string): string {
  return xmlSafe(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

/** An attribute value in double quotes: whitespace as references, since parsers normalise raw
 * newlines and tabs in attributes to spaces. */
function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\t/g, "&#9;");
}

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join("");
}

/** An element `depth` levels in: empty, holding text, or holding child elements, one per line. */
function element(
  depth: number,
  name: string,
  values: Record<string, string | number>,
  content?: string | string[],
): string {
  const indent = "  ".repeat(depth);
  const open = `${indent}<${name}${attributes(values)}`;
  if (content === undefined || content.length === 0) return `${open}/>`;
  if (typeof content === "string") return `${open}>${escapeText(content)}</${name}>`;
  return `${open}>\n${content.join("\n")}\n${indent}</${name}>`;
}

const seconds = (ms: number | null) => ((ms ?? 0) / 1000).toFixed(3);

/** Where a case belongs: its eval and the eval's file, from the listing. */
type CaseHome = { evalId: string; file: string };

function homes(listing: EvalListing | undefined): Map<string, CaseHome> {
  const map = new Map<string, CaseHome>();
  for (const entry of listing?.evals ?? [])
    for (const caseId of entry.cases) map.set(caseId, { evalId: entry.id, file: entry.file });
  return map;
}

function testcase(result: EvalResult, options: { classname: string; iterations: number }): string {
  const name = options.iterations > 1 ? `${result.caseId} #${result.iteration}` : result.caseId;
  const failed = result.assertions.filter((a) => !a.pass).map((a) => a.message);
  const problems = [...failed, ...(result.error ? [result.error] : [])];
  const outcome =
    result.status === "failed"
      ? [element(3, "failure", { message: problems.join("; ") || "failed", type: "assertion" }, problems.join("\n"))]
      : result.status === "error"
        ? [
            element(
              3,
              "error",
              { message: result.error ?? "the case could not run", type: "error" },
              result.error ?? "",
            ),
          ]
        : result.status === "passed"
          ? []
          : [element(3, "skipped", { message: `did not finish (${result.status})` })];
  const log = [
    ...result.assertions.map((a) => `${a.pass ? "pass" : "FAIL"} ${a.kind}: ${a.message}`),
    ...(result.error ? [`error: ${result.error}`] : []),
    ...(result.sessionIds.length ? [`sessions: ${result.sessionIds.join(" ")}`] : []),
  ].join("\n");
  const out = log ? [element(3, "system-out", {}, log)] : [];
  const values = { classname: options.classname, name, time: seconds(result.durationMs) };
  return element(2, "testcase", values, [...outcome, ...out]);
}

export function junitXml(options: { run: EvalRun; results: EvalResult[]; listing?: EvalListing }): string {
  const { run, results } = options;
  const where = homes(options.listing);
  const iterationsOf = new Map<string, number>();
  for (const r of results) iterationsOf.set(r.caseId, Math.max(iterationsOf.get(r.caseId) ?? 0, r.iteration));
  const suites = new Map<string, EvalResult[]>();
  for (const result of results) {
    const suite = where.get(result.caseId)?.file ?? `run ${run.id}`;
    suites.set(suite, [...(suites.get(suite) ?? []), result]);
  }
  const count = (list: EvalResult[]) => ({
    tests: list.length,
    failures: list.filter((r) => r.status === "failed").length,
    errors: list.filter((r) => r.status === "error").length,
    skipped: list.filter((r) => r.status === "pending" || r.status === "running").length,
    time: seconds(list.reduce((sum, r) => sum + (r.durationMs ?? 0), 0)),
  });
  const body = [...suites].map(([name, list]) => {
    const ordered = [...list].sort((a, b) => a.caseId.localeCompare(b.caseId) || a.iteration - b.iteration);
    const cases = ordered.map((r) =>
      testcase(r, {
        // A case missing from the listing (it changed since): its id's first segment stands in.
        classname: where.get(r.caseId)?.evalId ?? r.caseId.split("/")[0]!,
        iterations: iterationsOf.get(r.caseId) ?? 1,
      }),
    );
    return element(1, "testsuite", { name, ...count(list), timestamp: run.createdAt }, cases);
  });
  const totals = { name: "agentfold eval", ...count(results), time: seconds(run.durationMs) };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(0, "testsuites", totals, body)}\n`;
}
