// POST /<slug>/v1/dev/evals (and `agentfold eval`): a run of the selected cases of the agent's
// active version (docs/evals.md). The run and one pending result per case and iteration are
// written in one transaction and announced; the workers' executors run them
// (src/server/evals/eval-executor.ts), so the run survives a worker's restart.
import crypto from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import type { Principal } from "@/agents/sdk/types";
import { evalWorkChannel } from "@/server/channels";
import { pgTransaction } from "@/server/db";
import { AppError } from "@/server/errors";
import { evalCases, evalListing, selectCases } from "./eval-cases";
import type { EvalSelection } from "./schema";

export type EvalRunStarted = { runId: string; cases: { id: string; iterations: number }[] };

export async function startEvalRun(options: {
  db: PrismaClient;
  agentId: string;
  principal: Principal;
  /** Who, as people read it: an email, a token's name, "the CLI". */
  startedBy: string;
  selection: EvalSelection;
}): Promise<EvalRunStarted> {
  const { db, agentId, principal, startedBy, selection } = options;
  const agent = await db.agent.findUnique({
    where: { id: agentId },
    select: { activeVersionId: true, activeVersion: { select: { manifest: true } } },
  });
  const manifest = agent?.activeVersion?.manifest as AgentManifest | null | undefined;
  if (!agent?.activeVersionId || !manifest)
    throw new AppError("conflict", "the agent has no active version to evaluate");
  const cases = selectCases(evalCases(manifest), selection);
  if (cases.length === 0)
    throw new AppError(
      "invalid_input",
      manifest.evals.length === 0
        ? "the agent has no evals (evals/**/*.eval.ts)"
        : `no eval case matches ${JSON.stringify(selection)}`,
    );
  const runId = `evr_${crypto.randomUUID().replace(/-/g, "").slice(0, 24)}`;
  const planned = cases.map((c) => ({ ...c, iterations: selection.iterations ?? c.iterations }));
  await pgTransaction(db, async (client) => {
    await client.query(
      `INSERT INTO eval_runs (id, "agentId", "versionId", "startedBy", "ownerKind", "ownerId", selection, "maxConcurrency")
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
      [
        runId,
        agentId,
        agent.activeVersionId,
        startedBy,
        principal.kind,
        principal.id,
        JSON.stringify(selection),
        evalListing(manifest).maxConcurrency,
      ],
    );
    const rows = planned.flatMap((c) =>
      Array.from({ length: c.iterations }, (_, i) => [c.id, i + 1, c.file, c.index ?? null, c.timeoutMs]),
    );
    await client.query(
      `INSERT INTO eval_results ("runId", "caseId", iteration, "evalFile", "evalIndex", "timeoutMs")
       SELECT $1, r->>0, (r->>1)::int, r->>2, (r->>3)::int, (r->>4)::int FROM jsonb_array_elements($2::jsonb) r`,
      [runId, JSON.stringify(rows)],
    );
    // Sent at commit: the executors find the rows written.
    await client.query("SELECT pg_notify($1, $2)", [evalWorkChannel.name, runId]);
  });
  return { runId, cases: planned.map((c) => ({ id: c.id, iterations: c.iterations })) };
}
