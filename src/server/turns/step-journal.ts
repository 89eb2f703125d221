// The turn engine's step journal, in Postgres beside the event log it describes. Each named step
// of a turn (prepare, a model step, a tool call, an approval gate, finish …) records its outcome
// when it ends; a turn run again — Restate retries the invocation after a worker died, or replays
// it after a suspension — gets recorded outcomes back and runs only what had not finished.
//
// Restate still owns what Postgres cannot do alone: the invocation itself (retried until it
// ends), one turn at a time per session, awakeables and timers. Keeping the steps out of its
// journal saves a Restate round trip per step, most of the engine's cost per turn
// (docs/decisions.md, "Turn steps are journaled in Postgres").
//
// A step that finished is never run again; a step cut off before its record was written runs
// again, except a write tool call, which is claimed here before it runs and then never runs twice
// (claimWrite). The steps are built for that: every append carries an idempotency key, a tool
// call first looks for its recorded `action.result`, and a model step run again announces itself
// as a new attempt.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import type { StepRecord } from "@/server/events/append-events";
import { hurryAppends } from "@/server/events/group-commit";
import { awaitEarlierResult, currentClaim } from "./earlier-writes";
import type { EarlierRun, Seal, Step } from "./engine";

export type TurnJournal = {
  step: Step;
  /** Waits until every deferred record (below) is stored; throws SupersededRun for one that was
   * not (or the error of an append that failed). Called before a side effect that must not
   * happen on a decision not yet recorded. */
  settled: () => Promise<void>;
  earlier: EarlierRun;
  /** Whether someone asked this turn to stop (stop, preempt, delete) before this run began. */
  stopRequested: () => Promise<boolean>;
  /** Whether this run took the epoch: always, unless it asked for the session's first run only
   * (an eager run) and another run came first. A run that did not take it records nothing. */
  isCurrent: () => Promise<boolean>;
  /** The epoch this run took; undefined when it took none (the session is gone, or another run
   * came first). */
  epoch: () => Promise<number | undefined>;
};

/** Hands a step's record to its last append, still being written (a deferred record): the step
 * returns at once, and the journal checks the record when the next step completes. */
export function deferStepRecord(record: StepRecord, written: Promise<unknown>): void {
  record.written = written;
  // Observed from now on: the journal awaits it later.
  written.catch(() => undefined);
}

/** A run of a turn that a newer run took over (Restate retried the invocation while this one
 * was still going): it records nothing more and ends here. */
export class SupersededRun extends Error {}

/**
 * The journal of one turn, for one run of it. The run starts by taking the session's turn epoch
 * (bumping it) and reading, in the same statement, the turn's recorded steps, what an earlier run
 * appended, and whether a stop was asked; a fresh turn finds nothing. A step's record is written
 * only while this run's epoch is the session's: an older run still going records nothing and
 * stops at its next step. Outcomes are JSON: what a step returns on its first run is what a
 * replay returns, so both see the same value (a JSON round trip, as any durable journal does).
 */
export function turnJournal(
  db: PrismaClient,
  turn: { sessionId: string; turnId: string },
  /** The turns this invocation has run, this one included: see readRecorded. */
  invocationTurnIds: string[] = [turn.turnId],
  /** An eager run's start (src/server/worker/eager-turns.ts; read with its setup,
   * turn-setup.ts readEagerTurnStart): the session's start gave it the first epoch, so it takes
   * nothing and finds nothing recorded; it is current while no other run has taken the epoch since. */
  options: {
    eagerStart?: Promise<EagerStart | undefined>;
    /** This worker's liveness key, recorded with the writes this run claims. */
    workerKey?: () => number | undefined;
  } = {},
): TurnJournal {
  let reading: Promise<Recorded> | undefined;
  const read = () =>
    (reading ??= options.eagerStart
      ? options.eagerStart.then(eagerRecorded)
      : readRecorded(db, turn, invocationTurnIds));
  // Records handed to an append that a step did not wait for (a deferred record): the step's
  // outcome counts as recorded for the steps after it, whose appends group commit writes after
  // (or with) it; each later step that completes checks them first.
  const deferred: StepRecord[] = [];
  // The first deferred record known to have failed: no step starts after it.
  let failure: { error: unknown } | undefined;
  const settled = async () => {
    // Someone waits for them now: deferred appends linger no longer.
    if (deferred.length > 0) hurryAppends(poolOf(db));
    while (deferred.length > 0) {
      const record = deferred[0]!;
      await record.written;
      deferred.shift();
      if (!record.stored) throw superseded(record.name);
    }
  };
  const defer = (record: StepRecord) => {
    deferred.push(record);
    record.written!.then(
      () => void (record.stored || (failure ??= { error: superseded(record.name) })),
      (error: unknown) => void (failure ??= { error }),
    );
  };
  const superseded = (name: string) =>
    new SupersededRun(`turn ${turn.turnId}: step ${name} was not recorded, a newer run of the turn took over`);
  const step: Step = async <T>(name: string, action: (seal: Seal<T>) => Promise<T>): Promise<T> => {
    const { steps, epoch } = await read();
    if (steps.has(name)) return decode(steps.get(name)!) as T;
    if (failure) throw failure.error;
    let sealed: StepRecord | undefined;
    const value = await action(
      (outcome) => (sealed = { turnId: turn.turnId, name, sessionId: turn.sessionId, result: encode(outcome), epoch }),
    );
    const encoded = encode(value);
    if (sealed && sealed.result !== encoded) throw new Error(`step ${name} sealed another outcome than it returned`);
    if (sealed?.written) {
      defer(sealed);
    } else {
      await settled();
      // Sealed: the record went with the step's last events, unless this run was superseded.
      const isRecorded = sealed?.stored ?? (await recordStep(db, turn, name, encoded, epoch));
      if (!isRecorded) throw superseded(name);
    }
    steps.set(name, encoded);
    return decode(encoded) as T;
  };
  // Each step asks about its own keys, which only an earlier run can have written: what this run
  // appends later does not need to be seen here.
  const earlier: EarlierRun = {
    startedAttempts: async (stepKey) =>
      (await read()).events.filter(
        (event) =>
          event.type === "step.started" && event.key.startsWith(`${stepKey}.`) && event.key.endsWith(":started"),
      ).length,
    recorded: async (key) => {
      const event = (await read()).events.find((candidate) => candidate.key === key);
      return event ? JSON.parse(event.data) : undefined;
    },
    nudges: async (keyPrefix) =>
      (await read()).events
        .filter((event) => event.type === "nudge.delivered" && event.key.startsWith(keyPrefix))
        .map((event) => (JSON.parse(event.data) as { text: string }).text),
    claimWrite: async (keys, waitMs, signal) => {
      const { steps, epoch } = await read();
      const earlierClaim = async (claim: string | null) => {
        steps.set(keys.claim, claim);
        const claimant = decode(claim) as number | undefined;
        return {
          earlier: true,
          result: await awaitEarlierResult(db, turn.sessionId, keys.result, claimant, waitMs, signal),
        };
      };
      if (steps.has(keys.claim)) return earlierClaim(steps.get(keys.claim)!);
      const claim = encode(options.workerKey?.() ?? null);
      if (await recordStep(db, turn, keys.claim, claim, epoch)) {
        steps.set(keys.claim, claim);
        return { earlier: false };
      }
      // Refused: a newer run took the turn, or an older run's claim committed just after this
      // run's read. (Its insert held the session row while this run took the epoch, and the read
      // saw the steps as they were before it.) Such a claim is waited for like any other.
      const older = await currentClaim(db, turn, keys.claim, epoch);
      if (older === undefined) throw superseded(keys.claim);
      return earlierClaim(older);
    },
  };
  const epoch = async () => {
    const taken = (await read()).epoch;
    return taken === noEpoch ? undefined : taken;
  };
  return {
    step,
    settled,
    earlier,
    stopRequested: async () => (await read()).stopRequested,
    isCurrent: async () => (await epoch()) !== undefined,
    epoch,
  };
}

/** Writes a step's record while `epoch` is still the session's; false when it is not (or another
 * run recorded the step first). The row lock waits for a run that is taking the epoch. */
async function recordStep(
  db: PrismaClient,
  turn: { sessionId: string; turnId: string },
  name: string,
  encoded: string | null,
  epoch: number,
): Promise<boolean> {
  const { rowCount } = await poolOf(db).query({
    name: "agentfold-record-step",
    text: `INSERT INTO turn_steps ("turnId", name, "sessionId", result, at)
             SELECT $1, $2, id, $4, now() AT TIME ZONE 'UTC' FROM sessions WHERE id = $3 AND "turnEpoch" = $5 FOR SHARE
           ON CONFLICT ("turnId", name) DO NOTHING`,
    values: [turn.turnId, name, turn.sessionId, encoded, epoch],
  });
  return rowCount === 1;
}

/** No epoch taken: the session is gone, or another run took an eager run's turn before it began. */
const noEpoch = -1;

/** The epoch the session's start gives its eager run (record-session-start.ts). */
export const eagerEpoch = 1;

type Recorded = {
  epoch: number;
  stopRequested: boolean;
  steps: Map<string, string | null>;
  events: { key: string; type: string; data: string }[];
};

/**
 * Takes the epoch and reads what the turn recorded. It also drops the records of the session's
 * turns that ran in earlier invocations: Restate runs one invocation of a session at a time, so
 * those invocations have ended and will never be replayed. Turns of this invocation (a drained
 * follow-up runs in the same one) keep theirs.
 */
async function readRecorded(
  db: PrismaClient,
  turn: { sessionId: string; turnId: string },
  invocationTurnIds: string[],
): Promise<Recorded> {
  // Every idempotency key of a turn's events starts with its id (run-turn.ts and the steps).
  const { rows } = await poolOf(db).query<{
    kind: "epoch" | "stop" | "step" | "event";
    index: number | null;
    key: string | null;
    type: string | null;
    value: string | null;
  }>({
    name: "agentfold-read-turn-journal",
    text: `WITH bumped AS (
             UPDATE sessions SET "turnEpoch" = "turnEpoch" + 1 WHERE id = $2 RETURNING "turnEpoch"
           ),
           pruned AS (DELETE FROM turn_steps WHERE "sessionId" = $2 AND NOT ("turnId" = ANY($4)) AND EXISTS (SELECT 1 FROM bumped))
           SELECT 'epoch' AS kind, NULL::int AS index, "turnEpoch"::text AS key, NULL::text AS type, NULL::text AS value FROM bumped
           UNION ALL
           SELECT 'stop', NULL, "turnId", NULL, NULL FROM turn_stops WHERE "turnId" = $1
           UNION ALL
           SELECT 'step', NULL, name, NULL, result FROM turn_steps WHERE "turnId" = $1
           UNION ALL
           SELECT 'event', index, "idempotencyKey", type, data::text FROM session_events
             WHERE "sessionId" = $2 AND starts_with("idempotencyKey", $3) AND type IN ('step.started', 'action.result', 'nudge.delivered')
           ORDER BY index NULLS FIRST`,
    values: [turn.turnId, turn.sessionId, `${turn.turnId}:`, invocationTurnIds],
  });
  const recorded: Recorded = { epoch: noEpoch, stopRequested: false, steps: new Map(), events: [] };
  for (const row of rows) {
    if (row.kind === "epoch") recorded.epoch = Number(row.key);
    else if (row.kind === "stop") recorded.stopRequested = true;
    else if (row.kind === "step") recorded.steps.set(row.key!, row.value);
    else recorded.events.push({ key: row.key!, type: row.type!, data: row.value ?? "null" });
  }
  return recorded;
}

/** What an eager run needs to know before it records anything, read without committing: whether
 * the session's turn epoch is still the one its start gave it (any other run takes a later one
 * before it records anything) and whether a stop was asked already. */
export type EagerStart = { isCurrent: boolean; stopRequested: boolean };

/** The columns of an eager start, for a statement that reads `sessions` as `s`: $2 is the turn id
 * and $3 the eager epoch (the worker's setup read asks them with the session: turn-setup.ts). */
export const eagerStartColumns = `s."turnEpoch" = $3 AS "isCurrent", EXISTS (SELECT 1 FROM turn_stops WHERE "turnId" = $2) AS "stopRequested"`;

function eagerRecorded(start: EagerStart | undefined): Recorded {
  return {
    epoch: start?.isCurrent ? eagerEpoch : noEpoch,
    stopRequested: start?.stopRequested ?? false,
    steps: new Map(),
    events: [],
  };
}

function encode(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function decode(encoded: string | null): unknown {
  return encoded === null ? undefined : JSON.parse(encoded);
}
