// Schedules fire from one Restate virtual object per agent (key = agent id), so an agent's ticks
// never overlap, whichever worker runs them. A tick fires what is due (src/server/schedules) and
// sends itself the next tick, delayed until the next due time: a durable timer, so it survives
// restarts, and a tick that comes late (everything was down) folds what it missed into one firing.
// `start` (on activation, on start-up) begins a new chain and ends the old one: the object keeps
// the live chain's id, and a tick of another chain does nothing. Deleting the agent ends it too.
import * as restate from "@restatedev/restate-sdk";
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";
import type { AgentLogWriter } from "@/server/logging/agent-logs";
import { processLogger } from "@/server/logging/logger";
import { recordInvocation } from "@/server/sessions/record-invocation";
import { fireScheduleNow, runSchedules, type CodeRun } from "@/server/schedules/run-schedules";
import type { SandboxPool } from "@/agents/sandbox/pool";
import { versionSandboxSpec } from "@/server/agents/storage";
import path from "node:path";
import { backoff, defaultRetryBound, type RetryBound } from "./retry-bound";
import type { FireScheduleOutcome, TurnRequest } from "./runtime";
import { sessionDefinition } from "./session-object";

type SchedulerHandlers = { tick: (ctx: restate.ObjectContext, input: { chain: string }) => Promise<void> };
const schedulerDefinition = { name: "scheduler" } as restate.VirtualObjectDefinition<"scheduler", SchedulerHandlers>;

export type SchedulerDeps = {
  db: PrismaClient;
  dataDir: string;
  sandboxes: SandboxPool;
  logs?: AgentLogWriter;
  clock?: () => Date;
  retry?: RetryBound;
};

// A schedule's run() gets as long as a tool may take.
const runTimeoutMs = 15 * 60_000;

// A timer fires a little after the due minute, never before it.
const slackMs = 500;

export function schedulerObject(deps: SchedulerDeps) {
  const now = () => deps.clock?.() ?? new Date();

  async function queueTurns(ctx: restate.ObjectContext, turns: TurnRequest[]): Promise<void> {
    for (const turn of turns) {
      const invocationId = await ctx.objectSendClient(sessionDefinition, turn.sessionId).runTurn(turn).invocationId;
      await ctx.run(`${turn.turnId}:invocation`, () =>
        recordInvocation(deps.db, turn.sessionId, turn.turnId, invocationId),
      );
    }
  }

  /** A schedule's run() in the agent's sandbox; its receive / callTool come back as host calls. */
  async function runCode(ctx: restate.ObjectContext, code: CodeRun): Promise<string | undefined> {
    return ctx.run(`run:${code.name}`, async () => {
      const bundlePath = path.join(deps.dataDir, code.bundlePath);
      const sandbox = deps.sandboxes.forVersion(
        versionSandboxSpec(deps.dataDir, { agentId: ctx.key, versionId: code.versionId, bundlePath }),
      );
      const hostContext = { agentId: ctx.key, versionId: code.versionId, bundlePath, appAuth: code.appAuth };
      const outcome = await sandbox
        .call("runSchedule", { file: code.file, appAuth: code.appAuth }, { hostContext, timeoutMs: runTimeoutMs })
        .catch((error: Error) => {
          // A timeout or a crash: the sandbox could not put it in the agent's logs (a throw it did, with its stack).
          deps.logs?.write({
            agentId: ctx.key,
            level: "error",
            source: "schedule",
            name: code.file,
            message: `schedule ${code.name} failed: ${error.message}`,
          });
          return { ok: false as const, error: error.message };
        });
      if (!outcome.ok)
        processLogger().error({ agentId: ctx.key, schedule: code.name }, `schedule failed: ${outcome.error}`);
      return outcome.ok ? undefined : outcome.error;
    });
  }

  async function tick(ctx: restate.ObjectContext, chain: string): Promise<void> {
    if ((await ctx.get<string>("chain")) !== chain) return;
    const run = await ctx.run("due", async () => {
      const at = now();
      return { at: at.toISOString(), ...(await runSchedules(deps.db, ctx.key, at)) };
    });
    if (run.isGone) return ctx.clear("chain");
    await queueTurns(ctx, run.turns);
    for (const code of run.runs) await runCode(ctx, code);
    if (!run.nextDueAt) return;
    const delay = Math.max(0, Date.parse(run.nextDueAt) - Date.parse(run.at)) + slackMs;
    ctx.objectSendClient(schedulerDefinition, ctx.key).tick({ chain }, restate.rpc.sendOpts({ delay }));
  }

  return restate.object({
    name: "scheduler",
    handlers: {
      start: async (ctx: restate.ObjectContext): Promise<void> => {
        const chain = ctx.rand.uuidv4();
        ctx.set("chain", chain);
        await tick(ctx, chain);
      },
      tick: async (ctx: restate.ObjectContext, input: { chain: string }): Promise<void> => tick(ctx, input.chain),
      fire: async (ctx: restate.ObjectContext, input: { name: string }): Promise<FireScheduleOutcome> => {
        const started = await ctx.run("fire", () => fireScheduleNow(deps.db, ctx.key, input.name, now()));
        if ("error" in started) return new AppError("not_found", started.error).toBody();
        if ("turnId" in started) {
          await queueTurns(ctx, [started]);
          return { ok: true, sessionId: started.sessionId };
        }
        const failure = await runCode(ctx, started);
        return failure
          ? new AppError("not_found", `${input.name} failed: ${failure}`).toBody()
          : { ok: true, ran: true };
      },
    },
    // A chain must outlive an outage of the database: retried without a limit, at a bounded pace.
    options: { retryPolicy: backoff(deps.retry ?? defaultRetryBound) },
  });
}
