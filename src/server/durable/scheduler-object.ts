// Schedules fire from one Restate virtual object per agent (key = agent id), so an agent's ticks
// never overlap, whichever worker runs them. A tick fires what is due (src/server/schedules) and
// sends itself the next tick, delayed until the next due time: a durable timer, so it survives
// restarts, and a tick that comes late (everything was down) folds what it missed into one firing.
// `start` (on activation, on start-up) begins a new chain and ends the old one: the object keeps
// the live chain's id, and a tick of another chain does nothing. Deleting the agent ends it too.
import * as restate from "@restatedev/restate-sdk";
import type { PrismaClient } from "@prisma/client";
import { recordInvocation } from "@/server/sessions/record-invocation";
import { fireReminder } from "@/server/reminders/reminders";
import { fireScheduleNow, runSchedules } from "@/server/schedules/run-schedules";
import type { TurnRequest } from "./runtime";

type SessionHandlers = { runTurn: (ctx: restate.ObjectContext, turn: TurnRequest) => Promise<void> };
export const sessionDefinition = { name: "session" } as restate.VirtualObjectDefinition<"session", SessionHandlers>;

type SchedulerHandlers = { tick: (ctx: restate.ObjectContext, input: { chain: string }) => Promise<void> };
const schedulerDefinition = { name: "scheduler" } as restate.VirtualObjectDefinition<"scheduler", SchedulerHandlers>;

export type SchedulerDeps = { db: PrismaClient; clock?: () => Date };

// A timer fires a little after the due minute, never before it.
const slackMs = 500;

export function schedulerObject(deps: SchedulerDeps) {
  const now = () => deps.clock?.() ?? new Date();

  async function queueTurns(ctx: restate.ObjectContext, turns: TurnRequest[]): Promise<void> {
    for (const turn of turns) {
      const invocationId = await ctx.objectSendClient(sessionDefinition, turn.sessionId).runTurn(turn).invocationId;
      await ctx.run(`${turn.turnId}:invocation`, () => recordInvocation(deps.db, turn.sessionId, turn.turnId, invocationId));
    }
  }

  async function tick(ctx: restate.ObjectContext, chain: string): Promise<void> {
    if ((await ctx.get<string>("chain")) !== chain) return;
    const run = await ctx.run("due", async () => {
      const at = now();
      return { at: at.toISOString(), ...(await runSchedules(deps.db, ctx.key, at)) };
    });
    if (run.isGone) return ctx.clear("chain");
    await queueTurns(ctx, run.turns);
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
      fire: async (ctx: restate.ObjectContext, input: { name: string }): Promise<{ ok: true; sessionId: string } | { ok: false; message: string }> => {
        const turn = await ctx.run("fire", () => fireScheduleNow(deps.db, ctx.key, input.name, now()));
        if ("error" in turn) return { ok: false, message: turn.error };
        await queueTurns(ctx, [turn]);
        return { ok: true, sessionId: turn.sessionId };
      },
    },
  });
}

/** Reminders wake here (key = reminder id): the prompt goes to its session, or nowhere if the
 * reminder was cancelled or its session deleted. */
export function remindersObject(deps: SchedulerDeps) {
  return restate.object({
    name: "reminders",
    handlers: {
      fire: async (ctx: restate.ObjectContext): Promise<void> => {
        const turn = await ctx.run("deliver", () => fireReminder(deps.db, ctx.key, deps.clock?.() ?? new Date()));
        if (!turn) return;
        const invocationId = await ctx.objectSendClient(sessionDefinition, turn.sessionId).runTurn(turn).invocationId;
        await ctx.run(`${turn.turnId}:invocation`, () => recordInvocation(deps.db, turn.sessionId, turn.turnId, invocationId));
      },
    },
  });
}
