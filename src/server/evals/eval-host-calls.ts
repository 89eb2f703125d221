// The platform's side of an eval case's `t` (src/agents/sandbox/run-eval.ts, docs/evals.md):
// `t.send` runs one real turn in the case's eval session — the first starts it (purpose "eval",
// owned by whoever started the run, so its approvals follow the agent's unattended policy), later
// ones follow up — and answers with that turn's events once it ended; `t.judge` asks the grading
// model for a verdict on a value by a rubric.
import type { PrismaClient } from "@prisma/client";
import { generateText } from "ai";
import { z } from "zod";
import { resolveModel, type ModelProviderSettings } from "@/agents/runtime/models/resolve-model";
import type { SessionEvent } from "@/agents/sdk/events";
import type { Principal } from "@/agents/sdk/types";
import { poolOf } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import { AppError } from "@/server/errors";
import { readEvents } from "@/server/events/read-events";
import { followUpSession } from "@/server/sessions/follow-up-session";
import { waitForTurn } from "@/server/sessions/send-from-agent";
import { startSession } from "@/server/sessions/start-session";
import type { HostContext } from "@/server/turns/host-context";
import { parseInput } from "@/server/validation/parse-input";

export type EvalHostServices = {
  db: PrismaClient;
  runtime?: DurableRuntime;
  models: ModelProviderSettings;
  /** The grading model's id (AGENTFOLD_EVAL_JUDGE_MODEL, else the worker's default model). */
  judgeModel: string;
};

const sendSchema = z.object({
  message: z.string().min(1, "t.send needs a message"),
  sessionId: z.string().optional(),
  title: z.string().max(200).optional(),
  workspaceFiles: z.record(z.string(), z.string()).optional(),
  dryRun: z.boolean().optional(),
});

export async function evalSend(
  services: EvalHostServices,
  host: HostContext,
  params: unknown,
  signal?: AbortSignal,
): Promise<{ sessionId: string; events: SessionEvent[] }> {
  const { db } = services;
  const evalCase = needEvalCase(host);
  const runtime = services.runtime;
  if (!runtime) throw new AppError("unavailable", "t.send: this worker has no engine to run turns on");
  const sent = parseInput(sendSchema, params, "t.send");
  const principal = host.principal as Principal;
  const agent = await db.agent.findUniqueOrThrow({
    where: { id: host.agentId },
    select: { id: true, slug: true, teamId: true, activeVersionId: true },
  });
  let sessionId: string;
  let deliveryId: string;
  if (sent.sessionId) {
    // Only the case's own sessions take its follow-ups.
    const { rows } = await poolOf(db).query(
      `SELECT 1 FROM eval_results WHERE "runId" = $1 AND "caseId" = $2 AND iteration = $3 AND $4 = ANY("sessionIds")`,
      [evalCase.runId, evalCase.caseId, evalCase.iteration, sent.sessionId],
    );
    if (rows.length === 0) throw new AppError("forbidden", "t.send: that session is not this case's");
    const followed = await followUpSession({
      db,
      runtime,
      agentId: agent.id,
      sessionId: sent.sessionId,
      principal,
      body: {
        message: sent.message,
        continuationToken: "",
        admission: "preempt",
        ...(sent.workspaceFiles ? { workspaceFiles: sent.workspaceFiles } : {}),
      },
      isByConversationKey: true,
    });
    sessionId = sent.sessionId;
    deliveryId = followed.deliveryId;
  } else {
    // The run's version, not whatever is active now: a run evaluates the version it started on.
    const run = await db.evalRun.findUniqueOrThrow({ where: { id: evalCase.runId }, select: { versionId: true } });
    const started = await startSession({
      db,
      runtime,
      agent: { ...agent, activeVersionId: run.versionId },
      principal,
      body: {
        message: sent.message,
        title: sent.title ?? `eval ${evalCase.caseId}${evalCase.iteration > 1 ? ` #${evalCase.iteration}` : ""}`,
        ...(sent.workspaceFiles ? { workspaceFiles: sent.workspaceFiles } : {}),
        ...(sent.dryRun ? { dryRun: true } : {}),
      },
      baseUrl: "",
      purpose: "eval",
    });
    sessionId = started.sessionId;
    deliveryId = started.deliveryId;
    await poolOf(db).query(
      `UPDATE eval_results SET "sessionIds" = array_append("sessionIds", $4)
       WHERE "runId" = $1 AND "caseId" = $2 AND iteration = $3`,
      [evalCase.runId, evalCase.caseId, evalCase.iteration, sessionId],
    );
  }
  await waitForTurn({
    db,
    caller: { agentId: agent.id, slug: agent.slug, teamId: agent.teamId, principal },
    params: { sessionId, deliveryId },
    timeoutMs: Math.max(1_000, evalCase.deadline - Date.now()),
    ...(signal ? { signal } : {}),
  });
  const events = await turnEvents(db, sessionId, deliveryId);
  const usage = events.flatMap((event) => (event.type === "turn.completed" ? [event.data] : []));
  const input = usage.reduce((sum, data) => sum + (data.usage?.inputTokens ?? 0), 0);
  const output = usage.reduce((sum, data) => sum + (data.usage?.outputTokens ?? 0), 0);
  const cost = usage.reduce((sum, data) => sum + (data.cost?.totalUsd ?? 0), 0);
  await poolOf(db).query(
    `UPDATE eval_results SET "inputTokens" = "inputTokens" + $4, "outputTokens" = "outputTokens" + $5, "costUsd" = "costUsd" + $6
     WHERE "runId" = $1 AND "caseId" = $2 AND iteration = $3`,
    [evalCase.runId, evalCase.caseId, evalCase.iteration, input, output, cost],
  );
  return { sessionId, events };
}

/** The events of the turn that took `deliveryId`: from its message.received to its end. */
async function turnEvents(db: PrismaClient, sessionId: string, deliveryId: string): Promise<SessionEvent[]> {
  const events: SessionEvent[] = [];
  for (let from = 0; ; ) {
    const page = await readEvents({ db, sessionId, fromIndex: from, limit: 500 });
    events.push(...page);
    if (page.length < 500) break;
    from = page.at(-1)!.index + 1;
  }
  const received = events.find(
    (event) => event.type === "message.received" && event.data.deliveryIds?.includes(deliveryId),
  );
  const turnId = received?.turnId;
  return turnId ? events.filter((event) => event.turnId === turnId) : [];
}

const judgeSchema = z.object({ value: z.unknown(), rubric: z.string().min(1, "t.judge needs a rubric") });

const verdictSchema = z.object({ pass: z.boolean(), reason: z.string() });

/** The grading model's verdict: it is asked for JSON `{ pass, reason }` and nothing else. */
export async function evalJudge(
  services: EvalHostServices,
  host: HostContext,
  params: unknown,
  signal?: AbortSignal,
): Promise<{ pass: boolean; reason: string }> {
  needEvalCase(host);
  const { value, rubric } = parseInput(judgeSchema, params, "t.judge");
  const shown = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  const { text } = await generateText({
    model: resolveModel(services.judgeModel, services.models),
    system:
      'You grade an AI agent\'s output against a rubric. Answer with one JSON object and nothing else: {"pass": true or false, "reason": "one sentence"}.',
    prompt: `Rubric:\n${rubric}\n\nOutput to grade:\n${shown}`,
    ...(signal ? { abortSignal: signal } : {}),
  });
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  try {
    return verdictSchema.parse(JSON.parse(json ?? ""));
  } catch {
    return { pass: false, reason: `the grading model (${services.judgeModel}) gave no verdict: ${text.slice(0, 200)}` };
  }
}

function needEvalCase(host: HostContext): NonNullable<HostContext["evalCase"]> {
  if (!host.evalCase) throw new AppError("invalid_input", "t.send and t.judge work only in an eval case");
  return host.evalCase;
}
