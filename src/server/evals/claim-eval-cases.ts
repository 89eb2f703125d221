// Claims some of a run's cases for this executor (eval-executor.ts) under a lock on the run: never
// more running at once than the run's maxConcurrency, across every worker. Cases whose leases ran
// out are claimed again, up to `maxAttempts` times; past that they are given up on as errors.
import { pgTransaction } from "@/server/db";
import { type Claimed, type EvalExecutorContext, utcNow } from "./eval-executor-types";

type ClaimedRun = Omit<Claimed, "caseId" | "iteration" | "timeoutMs" | "runId">;

export async function claimEvalCases(
  executor: Pick<EvalExecutorContext, "db" | "owner" | "leaseMs" | "maxAttempts">,
  runId: string,
): Promise<Claimed[]> {
  const { db, owner, leaseMs, maxAttempts } = executor;
  return pgTransaction(db, async (client) => {
    // The run's row lock serializes claims: two workers never both see a free slot.
    const { rows: runs } = await client.query<ClaimedRun>(
      `SELECT "agentId", "versionId", "ownerKind", "ownerId", "maxConcurrency" FROM eval_runs
         WHERE id = $1 AND "finishedAt" IS NULL FOR UPDATE`,
      [runId],
    );
    const run = runs[0] as (ClaimedRun & { maxConcurrency: number }) | undefined;
    if (!run) return [];
    await client.query(
      `UPDATE eval_results SET status = 'error', "finishedAt" = ${utcNow}, "leaseOwner" = NULL, "leaseUntil" = NULL,
           error = 'the case was cut off ' || attempts || ' times: its worker stopped while it ran'
         WHERE "runId" = $1 AND status = 'running' AND "leaseUntil" < ${utcNow} AND attempts >= $2`,
      [runId, maxAttempts],
    );
    const { rows: live } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM eval_results WHERE "runId" = $1 AND status = 'running' AND "leaseUntil" >= ${utcNow}`,
      [runId],
    );
    const free = run.maxConcurrency - (live[0]?.n ?? 0);
    if (free <= 0) return [];
    // A case taken over starts again from nothing: new sessions, no assertions, no tokens.
    const { rows } = await client.query<{ caseId: string; iteration: number; timeoutMs: number }>(
      `UPDATE eval_results r SET status = 'running', "leaseOwner" = $2, "leaseUntil" = ${utcNow} + ($3 || ' milliseconds')::interval,
           attempts = attempts + 1, "startedAt" = ${utcNow}, "sessionIds" = '{}', assertions = '[]', error = NULL,
           "inputTokens" = 0, "outputTokens" = 0, "costUsd" = 0
         FROM (SELECT "caseId", iteration FROM eval_results WHERE "runId" = $1
                 AND (status = 'pending' OR (status = 'running' AND "leaseUntil" < ${utcNow}))
               ORDER BY "caseId", iteration LIMIT $4) picked
         WHERE r."runId" = $1 AND r."caseId" = picked."caseId" AND r.iteration = picked.iteration
         RETURNING r."caseId", r.iteration, r."timeoutMs"`,
      [runId, owner, String(leaseMs), free],
    );
    return rows.map((row) => ({ ...row, runId, ...run }));
  });
}
