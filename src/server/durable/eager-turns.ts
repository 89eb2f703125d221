// A new session's first turn starts the moment its commit is announced, not when Restate delivers
// its invocation: the statement that records a session start also NOTIFYs `turn_start` with the
// turn, and a worker that hears it runs the turn at once (services.ts, runEagerly). Restate still
// owns the turn: the web sends the invocation as before, and when it arrives it waits for this
// run and carries on after it (a drained follow-up), or runs the turn itself from the journal
// when this run did not finish it (the worker died, the turn waited on an approval or a slot).
//
// The eager run takes the session's first epoch or nothing (step-journal.ts, firstRunOnly): of
// several workers hearing the notice, or an invocation that got there first, one run wins, and a
// later run of the invocation supersedes it as any retry would.
import type { TurnRequest } from "./runtime";
import { listen, type PgListener } from "@/server/events/pg-listener";

export const turnStartChannel = "turn_start";

/** What the invocation does after a finished eager run: the follow-up its sends drained into. */
export type EagerOutcome = { next: TurnRequest | undefined };

export type EagerTurns = {
  /**
   * The eager run of this turn, once settled; undefined when there was none here or it did not
   * finish the turn. Also marks the turn as the invocation's: a notice heard later starts nothing.
   */
  outcome: (turnId: string) => Promise<EagerOutcome | undefined>;
  close: () => Promise<void>;
};

// The invocation normally arrives within milliseconds of the commit; a run's outcome is kept
// this long for it. One that comes later runs the turn from the journal, which finds it done.
const keepMs = 60_000;

export async function createEagerTurns(options: {
  databaseUrl: string;
  run: (turn: TurnRequest) => Promise<EagerOutcome | undefined>;
  log?: (message: string) => void;
}): Promise<EagerTurns> {
  const runs = new Map<string, Promise<EagerOutcome | undefined>>();
  const forget = (turnId: string) => setTimeout(() => runs.delete(turnId), keepMs).unref();
  const start = (payload: string) => {
    let turn: TurnRequest;
    try {
      turn = JSON.parse(payload) as TurnRequest;
    } catch {
      return options.log?.(`ignored a malformed ${turnStartChannel} notice`);
    }
    if (runs.has(turn.turnId)) return;
    const running = options.run(turn).catch(() => undefined);
    runs.set(turn.turnId, running);
    void running.then(() => forget(turn.turnId));
  };
  const listener: PgListener = await listen({ name: "eager turns", databaseUrl: options.databaseUrl, log: options.log, channels: { [turnStartChannel]: start } });
  return {
    outcome(turnId) {
      const running = runs.get(turnId);
      if (running) return running;
      runs.set(turnId, Promise.resolve(undefined));
      forget(turnId);
      return Promise.resolve(undefined);
    },
    close: () => listener.close(),
  };
}
