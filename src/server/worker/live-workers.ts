// Which workers are alive, as Postgres sees it: each holds a liveness lock, an advisory lock on
// its LISTEN connection under a fresh key (src/server/worker/eager-turns.ts), gone when the process
// or that connection is. Session starts name a live worker to run their first turn; a run of a
// turn that finds a write an earlier run started waits for it only while that run's worker lives.

/** pg_advisory_lock(int, int): this namespace, then the worker's key. */
export const livenessLockSpace = 0x61660001;

/** The live workers, as a subquery: one row per liveness lock held in this database, with the
 * worker's key and the backend of the connection holding it. */
export const liveWorkersSql = `(SELECT l.objid::bigint::int AS key, l.pid FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ${livenessLockSpace}::oid AND l.objsubid = 2
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))`;
