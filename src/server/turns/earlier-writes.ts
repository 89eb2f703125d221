// A write an earlier run of a turn claimed (step-journal.ts, claimWrite): the claim as recorded
// under this run's epoch, and the result that run appends, awaited while its worker lives.
import { setTimeout as sleep } from "node:timers/promises";
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { liveWorkersSql } from "@/server/worker/live-workers";

/** Claim `name` as recorded, while `epoch` is still the session's; undefined otherwise. */
export async function currentClaim(
  db: PrismaClient,
  turn: { sessionId: string; turnId: string },
  name: string,
  epoch: number,
): Promise<string | null | undefined> {
  const { rows } = await poolOf(db).query<{ result: string | null }>({
    name: "agentfold-current-claim",
    text: `SELECT ts.result FROM turn_steps ts JOIN sessions s ON s.id = ts."sessionId"
           WHERE ts."turnId" = $1 AND ts.name = $2 AND s.id = $3 AND s."turnEpoch" = $4`,
    values: [turn.turnId, name, turn.sessionId, epoch],
  });
  return rows.length > 0 ? rows[0]!.result : undefined;
}

const earlierResultPollMs = 100;

/** The result an earlier run's write records, polled while the worker that claimed it holds its
 * liveness lock (one that died records nothing more). A claim made between two of its worker's
 * LISTEN connections names no key: it is waited for the whole `waitMs`, as that worker may live. */
export async function awaitEarlierResult(
  db: PrismaClient,
  sessionId: string,
  resultKey: string,
  claimant: number | undefined,
  waitMs: number,
  signal: AbortSignal,
): Promise<unknown> {
  const until = Date.now() + waitMs;
  for (;;) {
    const { rows } = await poolOf(db).query<{ data: unknown; isAlive: boolean }>({
      name: "agentfold-earlier-write",
      text: `SELECT (SELECT data FROM session_events WHERE "sessionId" = $1 AND "idempotencyKey" = $2) AS data,
                    EXISTS (SELECT 1 FROM ${liveWorkersSql} w WHERE w.key = $3) AS "isAlive"`,
      values: [sessionId, resultKey, claimant ?? null],
    });
    const { data } = rows[0]!;
    const isAlive = claimant === undefined || claimant === null || rows[0]!.isAlive;
    if (data !== null || !isAlive || Date.now() >= until || signal.aborted) return data ?? undefined;
    try {
      await sleep(Math.min(earlierResultPollMs, until - Date.now()), undefined, { signal });
    } catch {
      return undefined;
    }
  }
}
