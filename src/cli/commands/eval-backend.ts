// The seam between `agentfold eval` and where the run happens: a throwaway stack on this machine
// (eval-local.ts) or a running instance over HTTP (eval-remote.ts).
import type { EvalListing, EvalResult, EvalRun, EvalSelection } from "@/server/evals/schema";

export type RunOutcome = { run: EvalRun; results: EvalResult[] };

export type StartedRun = { runId: string; cases: { id: string; iterations: number }[] };

export type EvalBackend = {
  /** Where the run happens, for the messages on stderr. */
  where: string;
  list(): Promise<EvalListing>;
  start(selection: EvalSelection): Promise<StartedRun>;
  /** Calls onResult as results change, until the run has finished; resolves with its final state. */
  follow(runId: string, onResult: (result: EvalResult) => void, signal: AbortSignal): Promise<RunOutcome>;
  close(): Promise<void>;
};
