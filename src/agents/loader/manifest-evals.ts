// The manifest's evals: each eval module (or each item of an exported array) with its cases, and
// evals/evals.config.ts (docs/evals.md).
import type { AgentLayout } from "./layout";
import type { AgentManifest } from "./manifest";
import { expectKind, moduleError, type Check, type Summary } from "./manifest-checks";

export function evals(check: Check, layout: AgentLayout): AgentManifest["evals"] {
  return layout.evals.flatMap((ref) => {
    const report = check.reports.get(ref.file);
    if (report?.error) return (moduleError(check, ref.file, report), []);
    if (report?.kind === "array") {
      const items = report.items ?? [];
      if (items.some((item) => item.kind !== "eval"))
        return (check.diagnostics.error(ref.file, "every item of the exported array must be defineEval(...)"), []);
      return items.map((item, index) => ({
        ...evalSummary(item.summary as Summary),
        id: `${ref.id}/${String(index).padStart(4, "0")}`,
        file: ref.file,
        index,
      }));
    }
    const s = expectKind(check, ref.file, "eval", "defineEval");
    if (!s) return [];
    return [{ ...evalSummary(s), id: ref.id, file: ref.file }];
  });
}

/** What the runner and the listing need of one defineEval: its cases, tags, iterations, timeout. */
function evalSummary(s: Summary) {
  const cases = Array.isArray(s.cases) ? (s.cases as Summary[]) : [];
  const caseTags = Object.fromEntries(
    cases.flatMap((c) => (Array.isArray(c.tags) && c.tags.length > 0 ? [[String(c.id), c.tags.map(String)]] : [])),
  );
  return {
    cases: cases.map((c) => String(c.id)),
    tags: Array.isArray(s.tags) ? s.tags.map(String) : [],
    ...(Object.keys(caseTags).length > 0 ? { caseTags } : {}),
    iterations: typeof s.iterations === "number" ? s.iterations : 1,
    ...(typeof s.description === "string" ? { description: s.description } : {}),
    ...(typeof s.timeoutMs === "number" ? { timeoutMs: s.timeoutMs } : {}),
  };
}

export function evalConfig(check: Check, layout: AgentLayout): AgentManifest["evalConfig"] {
  if (!layout.evalConfigFile) return undefined;
  const s = expectKind(check, layout.evalConfigFile, "eval-config", "defineEvalConfig");
  return s && typeof s.maxConcurrency === "number" ? { maxConcurrency: s.maxConcurrency } : undefined;
}
