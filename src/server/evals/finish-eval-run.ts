// Ends an eval run once none of its cases waits or runs (eval-executor.ts), and tells every
// executor when a case finished, since its slot is free for the run's next case.
import { evalWorkChannel } from "@/server/channels";
import { type EvalExecutorContext, utcNow } from "./eval-executor-types";

/** Ends the run when nothing of it waits or runs; `isAfterCase`: a slot is free, which every
 * executor hears (claims made on that notice notify nothing, so notices do not go round). */
export async function finishEvalRun(
  executor: Pick<EvalExecutorContext, "pool">,
  runId: string,
  isAfterCase = true,
): Promise<void> {
  await executor.pool.query(
    `UPDATE eval_runs SET "finishedAt" = ${utcNow} WHERE id = $1 AND "finishedAt" IS NULL
         AND NOT EXISTS (SELECT 1 FROM eval_results WHERE "runId" = $1 AND status IN ('pending', 'running'))`,
    [runId],
  );
  if (isAfterCase) await executor.pool.query("SELECT pg_notify($1, $2)", [evalWorkChannel.name, runId]);
}
