// The cases of a version's evals (docs/evals.md, "Ids"): an eval without cases is one case with
// the eval's id; with cases, one per case (`refunds/asks-approval`); an exported array's items
// are evals of their own (`sql/0000`). A selection picks cases by id or id prefix and by tag.
import type { AgentManifest } from "@/agents/loader/manifest";
import { defaultEvalConcurrency } from "@/agents/sdk/evals";
import type { EvalListing, EvalSelection } from "./schema";

/** How long one case may take, all its turns included, when its eval does not say. */
export const defaultCaseTimeoutMs = 5 * 60_000;

export type EvalCaseRef = {
  /** The full case id. */
  id: string;
  /** The eval's id, and the case's own within it (absent for an eval without cases). */
  evalId: string;
  caseId?: string;
  file: string;
  index?: number;
  tags: string[];
  iterations: number;
  timeoutMs: number;
};

export function evalCases(manifest: Pick<AgentManifest, "evals">): EvalCaseRef[] {
  return manifest.evals.flatMap((entry) => {
    const common = {
      evalId: entry.id,
      file: entry.file,
      ...(entry.index !== undefined ? { index: entry.index } : {}),
      iterations: entry.iterations ?? 1,
      timeoutMs: entry.timeoutMs ?? defaultCaseTimeoutMs,
    };
    if (entry.cases.length === 0) return [{ ...common, id: entry.id, tags: entry.tags ?? [] }];
    return entry.cases.map((caseId) => ({
      ...common,
      id: `${entry.id}/${caseId}`,
      caseId,
      tags: [...new Set([...(entry.tags ?? []), ...(entry.caseTags?.[caseId] ?? [])])],
    }));
  });
}

/** The selected cases: by id (or a prefix ending at a `/`) and by tag; both given, both must hold. */
export function selectCases(cases: EvalCaseRef[], selection: EvalSelection): EvalCaseRef[] {
  const { ids, tags } = selection;
  return cases.filter(
    (c) =>
      (!ids?.length || ids.some((id) => c.id === id || c.id.startsWith(`${id.replace(/\/+$/, "")}/`))) &&
      (!tags?.length || tags.some((tag) => c.tags.includes(tag))),
  );
}

/** GET /<slug>/v1/dev/evals: the version's evals, each with its full case ids. */
export function evalListing(manifest: Pick<AgentManifest, "evals" | "evalConfig">): Omit<EvalListing, never> {
  const cases = evalCases(manifest);
  return {
    maxConcurrency: manifest.evalConfig?.maxConcurrency ?? defaultEvalConcurrency,
    evals: manifest.evals.map((entry) => ({
      id: entry.id,
      file: entry.file,
      ...(entry.description ? { description: entry.description } : {}),
      tags: entry.tags ?? [],
      iterations: entry.iterations ?? 1,
      cases: cases.filter((c) => c.evalId === entry.id).map((c) => c.id),
      caseTags: Object.fromEntries(cases.filter((c) => c.evalId === entry.id).map((c) => [c.id, c.tags])),
    })),
  };
}
