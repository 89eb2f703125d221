// What a run of a session's turn asks of the durable engine beyond its journal, and the errors
// with which a run that has no engine (an eager run, eager-run.ts) leaves the turn to the
// session's invocation.
import type * as restate from "@restatedev/restate-sdk";
import type { ApprovalWaits, TurnDeps } from "@/server/turns/engine";
import type { DurableRuntime } from "./runtime";
import type { WorkerDeps } from "./worker-deps";

/** What a turn asks of the durable engine beyond its journal. Without `ctx` (an eager run) each
 * of these hands the turn over to the session's invocation instead. */
export type TurnDurable = Pick<TurnDeps, "awakeable" | "resolveAwakeable"> & {
  park: ApprovalWaits["park"];
  ctx?: restate.ObjectContext;
};

/** An eager run met something only the session's invocation can do (wait on an awakeable). */
export class HandOver extends Error {}

/** An eager run that found another run had taken the turn before it began: it leaves the turn to it. */
export class NotFirst extends Error {}

export function runtimeOf(deps: WorkerDeps): DurableRuntime {
  if (!deps.runtime) throw new Error("the worker needs its DurableRuntime to queue a turn");
  return deps.runtime;
}
