// A new session's first turn runs from its commit, without Restate: the statement that records a
// session start also names the worker to run it and NOTIFYs `turn_start` with the turn, and that
// worker runs it at once (runEagerly, src/server/durable/eager-run.ts). Most turns end there,
// and Restate never hears of them.
//
// Every worker holds a liveness lock: a Postgres advisory lock on its LISTEN connection, taken
// once its LISTENs took effect (so whoever sees the lock can count on the holder hearing what it
// is sent) and gone when the process or its connection is. The session-start statement picks one
// of the live workers' keys (record-session-start.ts), records it on the session
// (sessions.eagerWorker) and gives the session its first turn epoch, so the run it names owns the
// turn before anything runs: no claim, no commit before the first model call, and never two
// workers' eager runs of one turn. No live worker: eagerWorker 0, "announced, heard by nobody".
//
// Restate takes a turn over whenever the eager run cannot finish it:
// - the turn waits on the engine (an approval, a maxRunningTurns slot), fails unexpectedly or is
//   superseded: the eager run sends its invocation, which resumes it from the journal;
// - its worker dies, or its connection does: every worker sweeps for sessions' running turns (the
//   announced one, or the follow-up its sends drained into) with neither an invocation nor a live
//   worker under their key, sending them to Restate (at start-up, then every 2 s). A worker
//   whose connection dropped takes a fresh key on the next one and moves only the turns it is
//   running to it: one named while it could not hear (its old backend still held the lock) stays
//   under the old key, and is swept once that backend is gone (the worker ends it if it lingers);
// - nobody was there to hear the notice (eagerWorker 0): the sweep sends it 2 s after its start.
// A send is idempotent per turn, so two workers sweeping, or a sweep racing a send, cost nothing.
// - a follow-up the web recorded and then died before sending (follow-up-session.ts names it for
//   nobody, eagerWorker 0): the sweep sends it 2 s after it was recorded.
// Only those are swept: other turns are queued on Restate by whoever recorded them (a preempting
// follow-up, or one with workspace files, clears eagerWorker as it takes the session).
// Stop needs no invocation (the NOTIFY reaches the eager run); a preempting send first gives the
// running turn one (follow-up-session.ts), so Restate still runs the session's turns one at a time.
//
// The same connection hears coalesced sends announced for the sessions running here
// (pendingDeliveryChannel), so their runs skip the database at tool boundaries nothing was sent to.
import crypto from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { pendingDeliveryChannel, turnStartChannel } from "@/server/channels";
import { poolOf } from "@/server/db";
import { listen, type PgListener } from "@/server/events/pg-listener";
import { sendRecordedTurn } from "@/server/sessions/queue-turn";
import type { DurableRuntime, TurnRequest } from "@/server/durable/runtime";
import { logWarning } from "@/server/logging/logger";
import { livenessLockSpace, liveWorkersSql } from "./live-workers";

export type EagerTurns = {
  /**
   * Whether an eager run here finished this turn (waited for while it runs): then its invocation
   * has nothing to do. Also marks the turn as the invocation's: a notice heard later starts nothing.
   */
  finished: (turnId: string) => Promise<boolean>;
  /**
   * Whether a send may be waiting for the eager run of this session here (checked at each tool
   * boundary). False only when this worker heard the session's start on its current connection
   * and no send announced since it last asked: notifications on one connection arrive in commit
   * order, so every send queued after the start was heard. Otherwise true (ask the database).
   */
  mayHavePending: (sessionId: string) => boolean;
  /** The key of this worker's liveness lock (src/server/worker/live-workers.ts); undefined while
   * it holds none (between connections). */
  workerKey: () => number | undefined;
  /** Sends running turns that no invocation and no live eager run carry (see above); answers how many. */
  sweep: () => Promise<number>;
  close: () => Promise<void>;
};

/** What an eager run may ask of the listener that started it. */
export type EagerRunHints = { mayHavePending: () => boolean };

/** What `turn_start` carries: the turn, and the key of the worker that is to run it. */
const sweepEveryMs = 2_000;
const freshKey = () => crypto.randomInt(1, 2 ** 31 - 1);
// An outcome is kept this long for an invocation that arrives after the run ended (sent by a
// preempting send or a sweep); one that comes later runs the turn from the journal, which finds
// it done.
const keepMs = 60_000;

export async function createEagerTurns(options: {
  db: PrismaClient;
  databaseUrl: string;
  runtime: DurableRuntime;
  /** Runs the turn eagerly; true when it finished it. */
  run: (turn: TurnRequest, hints: EagerRunHints) => Promise<boolean>;
  log?: (message: string) => void;
}): Promise<EagerTurns> {
  const { db, runtime, log = logWarning } = options;
  // The key this worker's current (or last) connection holds (the key session starts name this
  // worker by), and that connection's backend.
  let held: { key: number; pid: number } | undefined;
  const runs = new Map<string, Promise<boolean>>();
  // The turns running here, by turn id (runs also keeps ended ones for a while).
  const running = new Set<string>();
  // The LISTEN connection's generation (one per connection, and a new one once it is lost), and
  // the sessions running eagerly here: heard on which generation, and whether a send was
  // announced since their run last asked.
  let generation = 0;
  const watched = new Map<string, { generation: number; isNudged: boolean }>();
  // Notices heard while a connection takes its key: they are read once it is known.
  let heldBack: string[] | undefined = [];
  const forget = (turnId: string) => setTimeout(() => runs.delete(turnId), keepMs).unref();
  const mayHavePending = (sessionId: string) => {
    const watch = watched.get(sessionId);
    if (!watch || watch.generation !== generation) return true;
    const isNudged = watch.isNudged;
    watch.isNudged = false;
    return isNudged;
  };
  const start = (payload: string) => {
    if (heldBack) return void heldBack.push(payload);
    const notice = turnStartChannel.decode(payload);
    if (!notice) return log(`ignored a malformed ${turnStartChannel.name} notice`);
    // Another worker's turn.
    if (notice.worker !== held?.key) return;
    const { turn } = notice;
    if (runs.has(turn.turnId)) return;
    const watch = { generation, isNudged: false };
    watched.set(turn.sessionId, watch);
    running.add(turn.turnId);
    const run = options.run(turn, { mayHavePending: () => mayHavePending(turn.sessionId) }).catch(() => false);
    runs.set(turn.turnId, run);
    void run.then(() => {
      running.delete(turn.turnId);
      forget(turn.turnId);
      if (watched.get(turn.sessionId) === watch) watched.delete(turn.sessionId);
    });
  };
  const nudge = (payload: string) => {
    const sessionId = pendingDeliveryChannel.decode(payload);
    const watch = sessionId === undefined ? undefined : watched.get(sessionId);
    if (watch) watch.isNudged = true;
  };
  const listener: PgListener = await listen({
    name: "eager turns",
    databaseUrl: options.databaseUrl,
    log,
    // Held for as long as this connection lives, taken once it LISTENs. Always a fresh key: turns
    // named for the old one while this worker could not hear them are swept, once the backend
    // that held it is gone, which this ends at once if it lingers (a connection that failed on
    // this side only: until then session starts would go on naming it, heard by nobody).
    onConnect: async (client) => {
      generation++;
      heldBack ??= [];
      const previous = held;
      let taken: { key: number; pid: number } | undefined;
      while (!taken) {
        const key = freshKey();
        const { rows } = await client.query<{ taken: boolean; pid: number }>(
          `SELECT pg_try_advisory_lock($1, $2) AS taken, pg_backend_pid() AS pid`,
          [livenessLockSpace, key],
        );
        if (rows[0]?.taken) taken = { key, pid: rows[0].pid };
      }
      held = taken;
      // The runs going on here move to the new key (whichever key they were under: an earlier
      // connection may have failed before moving them), so no sweep takes them for a dead worker's.
      if (running.size > 0)
        await client.query(
          `UPDATE sessions SET "eagerWorker" = $1 WHERE "runningTurnId" = ANY($2) AND "eagerWorker" > 0`,
          [taken.key, [...running]],
        );
      if (previous) {
        await client.query(
          `SELECT pg_terminate_backend(w.pid) FROM ${liveWorkersSql} w WHERE w.key = $1 AND w.pid = $2`,
          [previous.key, previous.pid],
        );
      }
      const notices = heldBack;
      heldBack = undefined;
      for (const payload of notices) start(payload);
    },
    onDisconnect: () => void generation++,
    // Sends first: a session start heard on this connection comes after both LISTENs took effect.
    channels: { [pendingDeliveryChannel.name]: nudge, [turnStartChannel.name]: start },
  });

  let sweeping: Promise<number> | undefined;
  const sweep = () => (sweeping ??= sweepOnce().finally(() => (sweeping = undefined)));
  async function sweepOnce(): Promise<number> {
    const { rows } = await poolOf(db).query<{ sessionId: string; turnId: string }>({
      name: "agentfold-unsent-turns",
      text: unsentTurnsSql,
      values: [sweepEveryMs],
    });
    for (const { sessionId, turnId } of rows) {
      try {
        await sendRecordedTurn({ db, runtime, sessionId, turnId });
        log(`sent turn ${turnId} of session ${sessionId} to the engine: nothing was running it`);
      } catch (error) {
        log(
          `could not send turn ${turnId} of session ${sessionId} to the engine (next sweep retries): ${(error as Error).message}`,
        );
      }
    }
    return rows.length;
  }
  const sweeper = setInterval(
    () => void sweep().catch((error: Error) => log(`sweep for unsent turns failed: ${error.message}`)),
    sweepEveryMs,
  );
  sweeper.unref();
  void sweep().catch((error: Error) => log(`sweep for unsent turns failed: ${error.message}`));

  return {
    finished(turnId) {
      const running = runs.get(turnId);
      if (running) return running;
      runs.set(turnId, Promise.resolve(false));
      forget(turnId);
      return Promise.resolve(false);
    },
    mayHavePending,
    workerKey: () => held?.key,
    sweep,
    async close() {
      clearInterval(sweeper);
      await sweeping?.catch(() => undefined);
      await listener.close();
    },
  };
}

// A running turn with no invocation in a session an eager run had (eagerWorker set; a send of
// the web's own clears it): the announced turn or the follow-up its run drained into, named for
// a worker whose liveness lock is gone, or announced ($1 ms ago or more) and named for nobody
// (eagerWorker 0, also where an eager run could not hand its turn over). Timestamps are UTC in
// columns without a zone.
const unsentTurnsSql = `
  SELECT s.id AS "sessionId", s."runningTurnId" AS "turnId"
  FROM sessions s
  WHERE s."runningTurnId" IS NOT NULL AND s."runningInvocationId" IS NULL AND s."eagerWorker" IS NOT NULL
    AND CASE WHEN s."eagerWorker" = 0
      THEN EXISTS (
        SELECT 1 FROM session_events e
        WHERE e."sessionId" = s.id AND e."turnId" = s."runningTurnId" AND e.type = 'message.received'
          AND e.at < (now() AT TIME ZONE 'UTC') - make_interval(secs => $1::float8 / 1000)
      )
      ELSE NOT EXISTS (SELECT 1 FROM ${liveWorkersSql} w WHERE w.key = s."eagerWorker")
    END`;
