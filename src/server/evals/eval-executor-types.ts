// The seam of the eval executor (eval-executor.ts): what its parts (claim-eval-cases.ts,
// run-claimed-case.ts, eval-case-lease.ts, finish-eval-run.ts) share — the claimed case, the
// executor's settings and connections, its loop's state, and the SQL clock their statements read.
import type { PrismaClient } from "@prisma/client";
import type pg from "pg";
import type { SandboxPool } from "@/agents/sandbox/pool";

export type Claimed = {
  runId: string;
  caseId: string;
  iteration: number;
  timeoutMs: number;
  agentId: string;
  versionId: string;
  ownerKind: string;
  ownerId: string;
};

/** One per executor, fixed once it started. */
export type EvalExecutorContext = {
  db: PrismaClient;
  pool: pg.Pool;
  /** Names this executor's claims (`leaseOwner`). */
  owner: string;
  dataDir: string;
  sandboxes: SandboxPool;
  /** How long a claim holds without renewal: a dead worker's cases are taken over after it. */
  leaseMs: number;
  maxAttempts: number;
  log: (message: string) => void;
};

/** What changes while the executor runs, read when each part runs. */
export type EvalExecutorLoop = {
  isClosed: boolean;
  /** The tick under way, or the last: ticks run one after another. */
  ticking: Promise<void>;
};

export const utcNow = `(now() AT TIME ZONE 'UTC')`;
