// Runs eval cases in the worker (docs/evals.md, "How a run runs"). A run's results wait as
// pending rows; an executor claims some under a lock on the run — never more running at once
// than the run's maxConcurrency, across every worker — and runs each in the version's sandbox
// (src/agents/sandbox/run-eval.ts), renewing its lease while it runs. A worker that dies leaves
// its leases to run out: another executor (or the same worker restarted) claims the case again,
// up to `maxAttempts` times. Claims are made when a run is announced (NOTIFY eval_work), when a
// case finishes, and every `pollMs` (notices sent while nobody listened are lost).
import crypto from "node:crypto";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import type { SandboxPool } from "@/agents/sandbox/pool";
import type { EvalCaseOutcome } from "@/agents/sandbox/run-eval";
import { versionSandboxSpec } from "@/server/agents/storage";
import { evalWorkChannel } from "@/server/channels";
import { pgTransaction, poolOf } from "@/server/db";
import { listen } from "@/server/events/pg-listener";
import type { HostContext } from "@/server/turns/host-context";
import { evalCases } from "./eval-cases";

export type EvalExecutor = { tick: () => Promise<void>; close: () => Promise<void> };

type Claimed = {
  runId: string;
  caseId: string;
  iteration: number;
  timeoutMs: number;
  agentId: string;
  versionId: string;
  ownerKind: string;
  ownerId: string;
};

const utcNow = `(now() AT TIME ZONE 'UTC')`;

export async function startEvalExecutor(options: {
  db: PrismaClient;
  databaseUrl: string;
  dataDir: string;
  sandboxes: SandboxPool;
  /** How long a claim holds without renewal: a dead worker's cases are taken over after it. */
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
  log: (message: string) => void;
}): Promise<EvalExecutor> {
  const { db, dataDir, sandboxes, log, leaseMs = 60_000, pollMs = 2_000, maxAttempts = 3 } = options;
  const pool = poolOf(db);
  const owner = `evals-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  const running = new Map<string, Promise<void>>();
  let isClosed = false;
  let ticking: Promise<void> = Promise.resolve();

  async function claim(runId: string): Promise<Claimed[]> {
    return pgTransaction(db, async (client) => {
      // The run's row lock serializes claims: two workers never both see a free slot.
      const { rows: runs } = await client.query<Omit<Claimed, "caseId" | "iteration" | "timeoutMs" | "runId">>(
        `SELECT "agentId", "versionId", "ownerKind", "ownerId", "maxConcurrency" FROM eval_runs
         WHERE id = $1 AND "finishedAt" IS NULL FOR UPDATE`,
        [runId],
      );
      const run = runs[0] as
        | (Omit<Claimed, "caseId" | "iteration" | "timeoutMs" | "runId"> & { maxConcurrency: number })
        | undefined;
      if (!run) return [];
      await client.query(
        `UPDATE eval_results SET status = 'error', "finishedAt" = ${utcNow}, "leaseOwner" = NULL, "leaseUntil" = NULL,
           error = 'the case was cut off ' || attempts || ' times: its worker stopped while it ran'
         WHERE "runId" = $1 AND status = 'running' AND "leaseUntil" < ${utcNow} AND attempts >= $2`,
        [runId, maxAttempts],
      );
      const { rows: live } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM eval_results WHERE "runId" = $1 AND status = 'running' AND "leaseUntil" >= ${utcNow}`,
        [runId],
      );
      const free = run.maxConcurrency - (live[0]?.n ?? 0);
      if (free <= 0) return [];
      // A case taken over starts again from nothing: new sessions, no assertions, no tokens.
      const { rows } = await client.query<{ caseId: string; iteration: number; timeoutMs: number }>(
        `UPDATE eval_results r SET status = 'running', "leaseOwner" = $2, "leaseUntil" = ${utcNow} + ($3 || ' milliseconds')::interval,
           attempts = attempts + 1, "startedAt" = ${utcNow}, "sessionIds" = '{}', assertions = '[]', error = NULL,
           "inputTokens" = 0, "outputTokens" = 0, "costUsd" = 0
         FROM (SELECT "caseId", iteration FROM eval_results WHERE "runId" = $1
                 AND (status = 'pending' OR (status = 'running' AND "leaseUntil" < ${utcNow}))
               ORDER BY "caseId", iteration LIMIT $4) picked
         WHERE r."runId" = $1 AND r."caseId" = picked."caseId" AND r.iteration = picked.iteration
         RETURNING r."caseId", r.iteration, r."timeoutMs"`,
        [runId, owner, String(leaseMs), free],
      );
      return rows.map((row) => ({ ...row, runId, ...run }));
    });
  }

  async function runCase(claimed: Claimed): Promise<void> {
    const where = [claimed.runId, claimed.caseId, claimed.iteration, owner];
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
    let outcome: EvalCaseOutcome;
    try {
      outcome = await execute(claimed);
    } catch (error) {
      outcome = { assertions: [], error: error instanceof Error ? error.message : String(error) };
    } finally {
      clearInterval(renew);
    }
    const status = statusOf(outcome);
    const error =
      outcome.error ?? (outcome.assertions.length === 0 ? "the case recorded no assertion: it proves nothing" : null);
    // Written only while the claim is still ours: a case taken over belongs to its new runner.
    await pool.query(
      `UPDATE eval_results SET status = $5, assertions = $6::jsonb, error = $7, "finishedAt" = ${utcNow},
         "leaseOwner" = NULL, "leaseUntil" = NULL
       WHERE "runId" = $1 AND "caseId" = $2 AND iteration = $3 AND "leaseOwner" = $4`,
      [...where, status, JSON.stringify(outcome.assertions), error],
    );
    await finishIfDone(claimed.runId);
  }

  async function execute(claimed: Claimed): Promise<EvalCaseOutcome> {
    const version = await db.agentVersion.findUnique({
      where: { id: claimed.versionId },
      select: { bundlePath: true, manifest: true },
    });
    if (!version?.bundlePath) return { assertions: [], error: "the run's version has no bundle" };
    const ref = evalCases(version.manifest as AgentManifest).find((c) => c.id === claimed.caseId);
    if (!ref) return { assertions: [], error: `the version has no eval case ${claimed.caseId}` };
    const bundlePath = path.join(dataDir, version.bundlePath);
    const sandbox = sandboxes.forVersion(
      versionSandboxSpec(dataDir, { agentId: claimed.agentId, versionId: claimed.versionId, bundlePath }),
    );
    const hostContext: HostContext = {
      agentId: claimed.agentId,
      versionId: claimed.versionId,
      bundlePath,
      principal: { kind: claimed.ownerKind as "user", id: claimed.ownerId },
      evalCase: {
        runId: claimed.runId,
        caseId: claimed.caseId,
        iteration: claimed.iteration,
        deadline: Date.now() + claimed.timeoutMs,
      },
    };
    return sandbox.call(
      "runEval",
      {
        file: ref.file,
        ...(ref.index !== undefined ? { index: ref.index } : {}),
        ...(ref.caseId ? { caseId: ref.caseId } : {}),
      },
      { timeoutMs: claimed.timeoutMs, hostContext },
    );
  }

  /** Ends the run when nothing of it waits or runs; `isAfterCase`: a slot is free, which every
   * executor hears (claims made on that notice notify nothing, so notices do not go round). */
  async function finishIfDone(runId: string, isAfterCase = true): Promise<void> {
    await pool.query(
      `UPDATE eval_runs SET "finishedAt" = ${utcNow} WHERE id = $1 AND "finishedAt" IS NULL
         AND NOT EXISTS (SELECT 1 FROM eval_results WHERE "runId" = $1 AND status IN ('pending', 'running'))`,
      [runId],
    );
    if (isAfterCase) await pool.query("SELECT pg_notify($1, $2)", [evalWorkChannel.name, runId]);
  }

  async function tickOnce(only?: string): Promise<void> {
    if (isClosed) return;
    const runIds = only
      ? [only]
      : (
          await pool.query<{ id: string }>(
            `SELECT id FROM eval_runs WHERE "finishedAt" IS NULL ORDER BY "createdAt" LIMIT 100`,
          )
        ).rows.map((row) => row.id);
    for (const runId of runIds) {
      for (const claimed of await claim(runId)) {
        const key = `${claimed.runId}\n${claimed.caseId}\n${claimed.iteration}`;
        const done = runCase(claimed)
          .catch((error: Error) => log(`eval ${claimed.caseId}: ${error.message}`))
          .finally(() => running.delete(key));
        running.set(key, done);
      }
      // A run whose last cases were given up on above is over too.
      await finishIfDone(runId, false);
    }
  }

  const tick = (only?: string) => {
    ticking = ticking
      .then(() => tickOnce(only))
      .catch((error: unknown) => log(`evals: ${error instanceof Error ? error.message : String(error)}`));
    return ticking;
  };

  const listener = await listen({
    databaseUrl: options.databaseUrl,
    name: "eval executor",
    channels: { [evalWorkChannel.name]: (runId) => void tick(evalWorkChannel.decode(runId)) },
    onReconnect: () => void tick(),
    log,
  });
  const timer = setInterval(() => void tick(), pollMs);
  timer.unref();
  void tick();
  return {
    tick: () => tick(),
    close: async () => {
      isClosed = true;
      clearInterval(timer);
      await listener.close();
      await ticking;
      // Cases still running are left to their leases: another worker takes them over.
    },
  };
}

/** passed: every assertion held; failed: one did not (a failed `require` too) or none was made;
 * error: the case threw or could not run. */
function statusOf(outcome: EvalCaseOutcome): "passed" | "failed" | "error" {
  if (outcome.error && !outcome.error.startsWith("require failed:")) return "error";
  if (outcome.error || outcome.assertions.length === 0) return "failed";
  return outcome.assertions.every((assertion) => assertion.pass) ? "passed" : "failed";
}
