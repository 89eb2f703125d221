// Runs eval cases in the worker (docs/evals.md, "How a run runs"). A run's results wait as
// pending rows; an executor claims some under a lock on the run — never more running at once
// than the run's maxConcurrency, across every worker — and runs each in the version's sandbox
// (src/agents/sandbox/run-eval.ts), renewing its lease while it runs. A worker that dies leaves
// its leases to run out: another executor (or the same worker restarted) claims the case again,
// up to `maxAttempts` times. Claims are made when a run is announced (NOTIFY eval_work), when a
// case finishes, and every `pollMs` (notices sent while nobody listened are lost).
// This file holds the loop and its wake-ups; claim-eval-cases.ts, run-claimed-case.ts,
// eval-case-lease.ts and finish-eval-run.ts the steps, eval-executor-types.ts what they share.
import crypto from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { SandboxPool } from "@/agents/sandbox/pool";
import { evalWorkChannel } from "@/server/channels";
import { poolOf } from "@/server/db";
import { listen } from "@/server/events/pg-listener";
import { claimEvalCases } from "./claim-eval-cases";
import type { Claimed, EvalExecutorContext, EvalExecutorLoop } from "./eval-executor-types";
import { finishEvalRun } from "./finish-eval-run";
import { runClaimedCase } from "./run-claimed-case";

export type EvalExecutor = { tick: () => Promise<void>; close: () => Promise<void> };

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
  const executor: EvalExecutorContext = {
    db,
    pool: poolOf(db),
    owner: `evals-${process.pid}-${crypto.randomBytes(4).toString("hex")}`,
    dataDir,
    sandboxes,
    leaseMs,
    maxAttempts,
    log,
  };
  const loop: EvalExecutorLoop = { isClosed: false, ticking: Promise.resolve() };
  const listener = await listen({
    databaseUrl: options.databaseUrl,
    name: "eval executor",
    channels: { [evalWorkChannel.name]: (runId) => void tick(executor, loop, evalWorkChannel.decode(runId)) },
    onReconnect: () => void tick(executor, loop),
    log,
  });
  const timer = setInterval(() => void tick(executor, loop), pollMs);
  timer.unref();
  void tick(executor, loop);
  return {
    tick: () => tick(executor, loop),
    close: async () => {
      loop.isClosed = true;
      clearInterval(timer);
      await listener.close();
      await loop.ticking;
      // Cases still running are left to their leases: another worker takes them over.
    },
  };
}

/** Queues a tick after the one under way, so two never claim at once in one executor. */
function tick(executor: EvalExecutorContext, loop: EvalExecutorLoop, only?: string): Promise<void> {
  loop.ticking = loop.ticking
    .then(() => tickOnce(executor, loop, only))
    .catch((error: unknown) => executor.log(`evals: ${error instanceof Error ? error.message : String(error)}`));
  return loop.ticking;
}

/** Claims what it may of one run (`only`) or of every unfinished run, and starts each claimed case. */
async function tickOnce(executor: EvalExecutorContext, loop: EvalExecutorLoop, only?: string): Promise<void> {
  if (loop.isClosed) return;
  const runIds = only
    ? [only]
    : (
        await executor.pool.query<{ id: string }>(
          `SELECT id FROM eval_runs WHERE "finishedAt" IS NULL ORDER BY "createdAt" LIMIT 100`,
        )
      ).rows.map((row) => row.id);
  for (const runId of runIds) {
    for (const claimed of await claimEvalCases(executor, runId)) startCase(executor, claimed);
    // A run whose last cases were given up on above is over too.
    await finishEvalRun(executor, runId, false);
  }
}

/** Runs the case without waiting for it: its slot is taken until it finishes or its lease ends. */
function startCase(executor: EvalExecutorContext, claimed: Claimed): void {
  void runClaimedCase(executor, claimed).catch((error: Error) =>
    executor.log(`eval ${claimed.caseId}: ${error.message}`),
  );
}
