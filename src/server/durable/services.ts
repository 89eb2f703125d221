// The Restate services this worker serves. Handler bodies orchestrate named steps; domain logic
// lives in src/server/<domain>.
import * as restate from "@restatedev/restate-sdk";
import type { PrismaClient } from "@prisma/client";
import type { ModelProviderSettings } from "@/agents/runtime/models/resolve-model";
import { appendEvents } from "@/server/events/append-events";
import { runTurn } from "@/server/sessions/run-turn";
import type { TurnRequest } from "./runtime";

/** Answers through Restate's ingress: proves the whole path ingress → Restate → worker works. */
export const healthService = restate.service({
  name: "health",
  handlers: {
    check: async (ctx: restate.Context): Promise<{ ok: true; at: string }> => {
      const at = await ctx.run("now", () => new Date().toISOString());
      return { ok: true, at };
    },
  },
});

export type WorkerDeps = { db: PrismaClient; dataDir: string; models: ModelProviderSettings; defaultModel: string };

/** One virtual object per session (key = session id): Restate runs one turn at a time per key. */
export function sessionObject(deps: WorkerDeps) {
  return restate.object({
    name: "session",
    handlers: {
      runTurn: async (ctx: restate.ObjectContext, turn: TurnRequest): Promise<void> => {
        try {
          await runTurn({ ...deps, step: (name, action) => ctx.run(name, action) }, turn);
        } catch (error) {
          if (!(error instanceof restate.CancelledError)) throw error;
          // Stop: record the interruption as the turn's end, in both clients' vocabularies.
          await ctx.run("cancelled", async () => {
            await appendEvents({
              db: deps.db,
              sessionId: turn.sessionId,
              events: [
                { type: "turn.failed", turnId: turn.turnId, data: { message: "turn interrupted", status: "cancelled" }, idempotencyKey: `${turn.turnId}:finished` },
                { type: "session.waiting", turnId: turn.turnId, data: {}, idempotencyKey: `${turn.turnId}:waiting` },
              ],
            });
            await deps.db.session.update({ where: { id: turn.sessionId }, data: { status: "waiting", runningInvocationId: null } });
          });
        }
      },
    },
    // Model steps stream for a long time inside one ctx.run: let them.
    options: { inactivityTimeout: { minutes: 15 }, abortTimeout: { minutes: 30 } },
  });
}

export function createServices(deps: WorkerDeps) {
  return [healthService, sessionObject(deps)];
}
