// A claimed case's lease (claim-eval-cases.ts): renewed while the case runs, so no other executor
// takes it over, and released with its result. Both write only while the claim is still ours.
import type { EvalCaseOutcome } from "@/agents/sandbox/run-eval";
import { type Claimed, type EvalExecutorContext, utcNow } from "./eval-executor-types";

type LeaseHolder = Pick<EvalExecutorContext, "pool" | "owner">;

/** The claim's key and owner: $1–$4 of every statement on it. */
function leaseOf(executor: LeaseHolder, claimed: Claimed) {
  return [claimed.runId, claimed.caseId, claimed.iteration, executor.owner];
}

/** Renews the lease every third of it until the returned timer is cleared. */
export function renewLease(executor: LeaseHolder & Pick<EvalExecutorContext, "leaseMs" | "log">, claimed: Claimed) {
  const { pool, leaseMs, log } = executor;
  const where = leaseOf(executor, claimed);
  const renew = setInterval(() => {
    pool
      .query(
        `UPDATE eval_results SET "leaseUntil" = ${utcNow} + ($5 || ' milliseconds')::interval
           WHERE "runId" = $1 AND "caseId" = $2 AND iteration = $3 AND "leaseOwner" = $4`,
        [...where, String(leaseMs)],
      )
      .catch((error: Error) => log(`eval ${claimed.caseId}: could not renew its lease: ${error.message}`));
  }, leaseMs / 3);
  renew.unref();
  return renew;
}

export async function recordResult(executor: LeaseHolder, claimed: Claimed, outcome: EvalCaseOutcome): Promise<void> {
  const status = statusOf(outcome);
  const error =
    outcome.error ?? (outcome.assertions.length === 0 ? "the case recorded no assertion: it proves nothing" : null);
  // Written only while the claim is still ours: a case taken over belongs to its new runner.
  await executor.pool.query(
    `UPDATE eval_results SET status = $5, assertions = $6::jsonb, error = $7, "finishedAt" = ${utcNow},
         "leaseOwner" = NULL, "leaseUntil" = NULL
       WHERE "runId" = $1 AND "caseId" = $2 AND iteration = $3 AND "leaseOwner" = $4`,
    [...leaseOf(executor, claimed), status, JSON.stringify(outcome.assertions), error],
  );
}

/** passed: every assertion held; failed: one did not (a failed `require` too) or none was made;
 * error: the case threw or could not run. */
function statusOf(outcome: EvalCaseOutcome): "passed" | "failed" | "error" {
  if (outcome.error && !outcome.error.startsWith("require failed:")) return "error";
  if (outcome.error || outcome.assertions.length === 0) return "failed";
  return outcome.assertions.every((assertion) => assertion.pass) ? "passed" : "failed";
}
