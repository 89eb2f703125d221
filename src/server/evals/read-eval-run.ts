// An eval run as the API answers it (src/server/evals/schema.ts): its results, their counts, the
// pass rate overall and per case, tokens, cost and wall time; and an agent's runs, newest first.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";
import type { EvalAssertion, EvalResult, EvalRun, EvalSelection } from "./schema";

type ResultRow = {
  runId: string;
  caseId: string;
  iteration: number;
  status: string;
  assertions: unknown;
  error: string | null;
  sessionIds: string[];
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  startedAt: Date | null;
  finishedAt: Date | null;
};

type RunRow = {
  id: string;
  versionId: string;
  startedBy: string;
  selection: unknown;
  createdAt: Date;
  finishedAt: Date | null;
};

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toEvalResult(row: ResultRow): EvalResult {
  return {
    runId: row.runId,
    caseId: row.caseId,
    iteration: row.iteration,
    status: row.status as EvalResult["status"],
    assertions: (row.assertions ?? []) as EvalAssertion[],
    error: row.error,
    sessionIds: row.sessionIds,
    tokens: { input: row.inputTokens, output: row.outputTokens },
    costUsd: row.costUsd,
    durationMs:
      row.startedAt && row.finishedAt ? Math.max(0, row.finishedAt.getTime() - row.startedAt.getTime()) : null,
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

export function toEvalRun(run: RunRow, versionNumber: number | null, results: EvalResult[]): EvalRun {
  const count = (status: EvalResult["status"]) => results.filter((r) => r.status === status).length;
  const counts = {
    total: results.length,
    pending: count("pending"),
    running: count("running"),
    passed: count("passed"),
    failed: count("failed"),
    errored: count("error"),
  };
  const finished = counts.passed + counts.failed + counts.errored;
  const byCase: EvalRun["byCase"] = {};
  for (const result of results) {
    const entry = (byCase[result.caseId] ??= { passed: 0, total: 0 });
    entry.total += 1;
    if (result.status === "passed") entry.passed += 1;
  }
  const isDone = run.finishedAt !== null;
  return {
    id: run.id,
    versionId: run.versionId,
    versionNumber,
    status: !isDone ? "running" : counts.errored > 0 ? "error" : counts.failed > 0 ? "failed" : "passed",
    startedBy: run.startedBy,
    createdAt: run.createdAt.toISOString(),
    finishedAt: iso(run.finishedAt),
    selection: (run.selection ?? {}) as EvalSelection,
    counts,
    passRate: finished === 0 ? null : counts.passed / finished,
    byCase,
    tokens: {
      input: results.reduce((sum, r) => sum + r.tokens.input, 0),
      output: results.reduce((sum, r) => sum + r.tokens.output, 0),
    },
    costUsd: results.reduce((sum, r) => sum + r.costUsd, 0),
    durationMs: run.finishedAt ? run.finishedAt.getTime() - run.createdAt.getTime() : null,
  };
}

const resultSelect = {
  runId: true,
  caseId: true,
  iteration: true,
  status: true,
  assertions: true,
  error: true,
  sessionIds: true,
  inputTokens: true,
  outputTokens: true,
  costUsd: true,
  startedAt: true,
  finishedAt: true,
} as const;

export async function readEvalRun(
  db: PrismaClient,
  runId: string,
  agentId?: string,
): Promise<{ run: EvalRun; results: EvalResult[] }> {
  const run = await db.evalRun.findFirst({
    where: { id: runId, ...(agentId ? { agentId } : {}) },
    include: { results: { select: resultSelect, orderBy: [{ caseId: "asc" }, { iteration: "asc" }] } },
  });
  if (!run) throw new AppError("not_found", `no eval run ${runId}`);
  const version = await db.agentVersion.findUnique({ where: { id: run.versionId }, select: { number: true } });
  const results = run.results.map(toEvalResult);
  return { run: toEvalRun(run, version?.number ?? null, results), results };
}

export async function listEvalRuns(db: PrismaClient, agentId: string, limit = 20): Promise<EvalRun[]> {
  const runs = await db.evalRun.findMany({
    where: { agentId },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(limit, 1), 200),
    include: { results: { select: resultSelect } },
  });
  const versions = await db.agentVersion.findMany({
    where: { id: { in: [...new Set(runs.map((run) => run.versionId))] } },
    select: { id: true, number: true },
  });
  const numbers = new Map(versions.map((v) => [v.id, v.number]));
  return runs.map((run) => toEvalRun(run, numbers.get(run.versionId) ?? null, run.results.map(toEvalResult)));
}
