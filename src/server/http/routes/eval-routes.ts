// /<slug>/v1/dev/evals: the agent's evals, starting a run of some of them, and reading runs
// (docs/evals.md, docs/api.md "Evals"). Running needs `evals:run` (members); reading, `sessions:read`.
import { z } from "zod";
import type { AgentManifest } from "@/agents/loader/manifest";
import { AppError } from "@/server/errors";
import { evalListing } from "@/server/evals/eval-cases";
import { listEvalRuns, readEvalRun } from "@/server/evals/read-eval-run";
import { evalListingSchema, evalResultSchema, evalRunSchema, evalSelectionSchema } from "@/server/evals/schema";
import { startEvalRun } from "@/server/evals/start-eval-run";
import { watchEvalRun } from "@/server/evals/watch-eval-run";
import { changedBy } from "@/server/secrets/changed-by";
import { ndjsonHeaders } from "../ndjson";
import { db } from "../platform";
import { json } from "../respond";
import { agentRoute } from "../v1-route";

const runIdSchema = z.string().regex(/^evr_[a-f0-9]{1,64}$/, "not an eval run id (evr_…)");

const ok = <T extends z.ZodRawShape>(shape: T) => z.object({ ok: z.literal(true), ...shape });

export const evalRoutes = [
  agentRoute({
    method: "GET",
    path: "/:slug/v1/dev/evals",
    name: "listEvals",
    summary: "The active version's evals: ids, tags, iterations, case ids, and the concurrency of a run",
    action: "sessions:read",
    response: { json: ok(evalListingSchema.shape) },
    handler: async ({ agent }) => {
      if (!agent.activeVersionId) throw new AppError("not_found", `agent '${agent.slug}' has no active version`);
      const version = await db().agentVersion.findUniqueOrThrow({
        where: { id: agent.activeVersionId },
        select: { manifest: true },
      });
      return { ok: true, ...evalListing(version.manifest as AgentManifest) };
    },
  }),
  agentRoute({
    method: "POST",
    path: "/:slug/v1/dev/evals",
    name: "startEvalRun",
    summary: "Run the selected evals (ids or id prefixes, tags; all by default) on the active version",
    action: "evals:run",
    body: evalSelectionSchema,
    alsoAnswers: [202],
    response: {
      json: ok({
        runId: z.string(),
        cases: z.array(z.object({ id: z.string(), iterations: z.number().int().positive() })),
      }),
    },
    handler: async ({ caller, agent, body }) => {
      const started = await startEvalRun({
        db: db(),
        agentId: agent.id,
        principal: caller.principal,
        startedBy: changedBy(caller.principal),
        selection: body,
      });
      return json({ ok: true, ...started }, 202);
    },
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/dev/evals/runs",
    name: "listEvalRuns",
    summary: "The agent's eval runs, newest first, with their pass rates",
    action: "sessions:read",
    query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) }),
    response: { json: ok({ runs: z.array(evalRunSchema) }) },
    handler: async ({ agent, query }) => ({ ok: true, runs: await listEvalRuns(db(), agent.id, query.limit) }),
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/dev/evals/runs/:runId",
    name: "getEvalRun",
    summary: "One eval run with every result and assertion",
    action: "sessions:read",
    params: { runId: runIdSchema },
    response: { json: ok({ run: evalRunSchema, results: z.array(evalResultSchema) }) },
    handler: async ({ agent, params }) => ({ ok: true, ...(await readEvalRun(db(), params.runId, agent.id)) }),
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/dev/evals/runs/:runId/stream",
    name: "streamEvalRun",
    summary: "NDJSON: the run, each result as it starts and ends, and the finished run last",
    action: "sessions:read",
    params: { runId: runIdSchema },
    response: {
      ndjson: z.union([
        z.object({ type: z.literal("run"), run: evalRunSchema }),
        z.object({ type: z.literal("result"), result: evalResultSchema }),
      ]),
    },
    handler: async ({ request, agent, params }) => {
      // Unknown runs are a 404 before the stream opens.
      await readEvalRun(db(), params.runId, agent.id);
      const stream = watchEvalRun({ db: db(), runId: params.runId, agentId: agent.id, signal: request.signal });
      return new Response(stream, { headers: ndjsonHeaders });
    },
  }),
];
