// The `session` virtual object: a session's turns, one at a time, and the eager run of a new
// session's first turn that shares its code. Handler bodies orchestrate named steps; domain logic
// lives in src/server/<domain>. A run of a turn is session-turn.ts, its early ends turn-ends.ts,
// the eager run eager-run.ts.
import * as restate from "@restatedev/restate-sdk";
import { turnJournal } from "@/server/turns/step-journal";
import { backoff, defaultRetryBound, type RetryBound } from "./retry-bound";
import type { TurnRequest } from "./runtime";
import { runSessionTurn } from "./session-turn";
import type { TurnDurable } from "./turn-durable";
import type { WorkerDeps } from "./worker-deps";

export { runEagerly } from "./eager-run";
export { sessionDefinition } from "./session-definition";
export { HandOver } from "./turn-durable";

/** Restate's retry policy for a bound. Attempts are counted by the turn itself, in Postgres
 * (failed-attempts.ts): an attempt that cannot reach the database cannot record its end either,
 * so Restate's own limit is only a backstop, ten times as high, that pauses the invocation
 * (a stop resumes it, and it then records its end). */
function retryPolicy(bound: RetryBound) {
  return { ...backoff(bound), maxAttempts: bound.attempts * 10, onMaxAttempts: "pause" as const };
}

/**
 * One virtual object per session (key = session id): Restate runs one invocation at a time per
 * key, so turns of a session never overlap. A turn whose coalesced sends drained into a follow-up
 * runs that follow-up in the same invocation. A new session's first turn usually runs without
 * one, from its commit (src/server/worker/eager-turns.ts); an invocation of it takes over what
 * that run leaves.
 */
export function sessionObject(deps: WorkerDeps) {
  return restate.object({
    name: "session",
    handlers: {
      runTurn: async (ctx: restate.ObjectContext, first: TurnRequest): Promise<void> => {
        const ran: string[] = [first.turnId];
        const durable: TurnDurable = {
          ctx,
          awakeable: () => ctx.awakeable<void>(),
          resolveAwakeable: (id: string) => ctx.resolveAwakeable(id),
          park: (timeoutMs: number) => {
            const { id, promise } = ctx.awakeable<unknown>();
            return { id, promise: promise.orTimeout(timeoutMs) };
          },
        };
        // Finished by its eager run, which handed anything left to its own invocation.
        if (await deps.eager?.finished(first.turnId)) return;
        let turn: TurnRequest | undefined = first;
        while (turn) {
          if (turn !== first) ran.push(turn.turnId);
          turn = await runSessionTurn(
            deps,
            turn,
            turnJournal(deps.db, turn, [...ran], { workerKey: deps.eager?.workerKey }),
            durable,
          );
        }
      },
    },
    // A turn's steps are journaled in Postgres, not in Restate: a whole turn may send Restate
    // nothing until it ends. Restate asks a run that was silent for the inactivity timeout to
    // suspend (a turn waiting on an approval does) and aborts one that cannot (a turn still
    // working) after the abort timeout; its retry would supersede the run. So both are long: a
    // turn has up to seven hours of work (25 model steps, tools of up to 15 minutes each).
    options: {
      inactivityTimeout: { hours: 1 },
      abortTimeout: { hours: 6 },
      retryPolicy: retryPolicy(deps.retry ?? defaultRetryBound),
    },
  });
}
