import * as restate from "@restatedev/restate-sdk";
import type { PrismaClient } from "@prisma/client";
import { fireReminder } from "@/server/reminders/reminders";
import { recordInvocation } from "@/server/sessions/record-invocation";
import { backoff, defaultRetryBound, type RetryBound } from "./retry-bound";
import { sessionDefinition } from "./session-object";

export type RemindersDeps = { db: PrismaClient; clock?: () => Date; retry?: RetryBound };

/** Reminders wake here (key = reminder id): the prompt goes to its session, or nowhere if the
 * reminder was cancelled or its session deleted. */
export function remindersObject(deps: RemindersDeps) {
  return restate.object({
    name: "reminders",
    handlers: {
      fire: async (ctx: restate.ObjectContext): Promise<void> => {
        const turn = await ctx.run("deliver", () => fireReminder(deps.db, ctx.key, deps.clock?.() ?? new Date()));
        if (!turn) return;
        const invocationId = await ctx.objectSendClient(sessionDefinition, turn.sessionId).runTurn(turn).invocationId;
        await ctx.run(`${turn.turnId}:invocation`, () =>
          recordInvocation(deps.db, turn.sessionId, turn.turnId, invocationId),
        );
      },
    },
    options: { retryPolicy: backoff(deps.retry ?? defaultRetryBound) },
  });
}
