// The Restate services this worker serves. Handler bodies orchestrate named steps; domain logic
// lives in src/server/<domain>.
import * as restate from "@restatedev/restate-sdk";
import type { PrismaClient } from "@prisma/client";
import type { ModelProviderSettings } from "@/agents/runtime/models/resolve-model";
import type { SandboxPool } from "@/agents/sandbox/pool";
import { workspaceDir } from "@/server/agents/storage";
import type { TurnCancellations } from "@/server/turns/cancellation";
import { queueTurn } from "@/server/sessions/queue-turn";
import { recordInvocation } from "@/server/sessions/record-invocation";
import { finishTurn, startLeftoverTurn } from "@/server/turns/finish-turn";
import { handOnSlot, runTurn, type Step } from "@/server/turns/run-turn";
import type { Seal } from "@/server/turns/agent-loop";
import { turnJournal } from "@/server/turns/step-journal";
import { runDirectCall } from "@/server/tools/run-direct-call";
import type { DirectCallOutcome, DirectCallRequest } from "@/server/tools/schema";
import type { TurnRequest } from "./runtime";
import type { DurableRuntime } from "./runtime";
import { remindersObject, schedulerObject, sessionDefinition } from "./scheduler-object";

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

export type WorkerDeps = {
  db: PrismaClient;
  dataDir: string;
  models: ModelProviderSettings;
  defaultModel: string;
  sandboxes: SandboxPool;
  cancellations: TurnCancellations;
  /** Backoff before retry n of a read tool (tests shorten it). */
  retryDelayMs?: (attempt: number) => number;
  /** How long a parked tool call waits for a decision before it expires (denied); 24 h. */
  approvalTimeoutMs?: number;
  /** The scheduler's clock (tests move it). */
  clock?: () => Date;
  /** For what a turn starts in the engine (reminders' delayed wakes); without it, no reminders. */
  runtime?: DurableRuntime;
};

const defaultApprovalTimeoutMs = 24 * 60 * 60 * 1000;

/**
 * One virtual object per session (key = session id): Restate runs one invocation at a time per
 * key, so turns of a session never overlap. A turn whose coalesced sends drained into a follow-up
 * runs that follow-up in the same invocation.
 */
export function sessionObject(deps: WorkerDeps) {
  return restate.object({
    name: "session",
    handlers: {
      runTurn: async (ctx: restate.ObjectContext, first: TurnRequest): Promise<void> => {
        let turn: TurnRequest | undefined = first;
        const ran: string[] = [];
        while (turn) {
          const current: TurnRequest = turn;
          ran.push(current.turnId);
          const tracked = deps.cancellations.track(current.turnId);
          // The step body now running: a cancellation waits for it to settle before recording
          // the end, so no delta lands after turn.failed.
          let inflight: Promise<unknown> = Promise.resolve();
          const journal = turnJournal(deps.db, current, [...ran]);
          const step: Step = (name, action) =>
            journal.step(name, (seal) => {
              const running = action(seal);
              inflight = running.catch(() => undefined);
              return running;
            });
          const durable = {
            awakeable: () => ctx.awakeable<void>(),
            resolveAwakeable: (id: string) => ctx.resolveAwakeable(id),
          };
          const approvals = {
            timeoutMs: deps.approvalTimeoutMs ?? defaultApprovalTimeoutMs,
            park: (timeoutMs: number) => {
              const { id, promise } = ctx.awakeable<unknown>();
              return { id, promise: promise.orTimeout(timeoutMs) };
            },
          };
          try {
            // A stop asked before this run began (it is a retry) still stops it.
            const started = journal.stopRequested().then((asked) => void (asked && tracked.abort()));
            const { next, stopped } = await runTurn({ ...deps, ...durable, approvals, step, earlier: journal.earlier, signal: tracked.signal, started }, current);
            turn = next;
            if (stopped) {
              // Stopped or preempted, and the turn saw it first: it recorded its own end.
              // Restate's cancellation of this invocation is on its way, so sends coalesced
              // meanwhile run in a new invocation, queued through the ingress where that
              // cancellation cannot reach them.
              const leftover = next ?? (await step<TurnRequest | undefined>(`${current.turnId}:leftover`, (seal) => leftoverTurn(deps, current.sessionId, seal)));
              if (leftover) await step(`${leftover.turnId}:queued`, () => queueTurn({ db: deps.db, runtime: runtimeOf(deps), turn: leftover, mode: "chat" }));
              return;
            }
          } catch (error) {
            if (!(error instanceof restate.CancelledError)) throw error;
            tracked.abort();
            await inflight;
            const cancelled = current;
            const leftover = await ctx.run(`${cancelled.turnId}:cancelled`, async () => {
              const session = await deps.db.session.findUnique({ where: { id: cancelled.sessionId }, select: { mode: true } });
              if (!session) return undefined;
              await finishTurn({ db: deps.db, sessionId: cancelled.sessionId, turnId: cancelled.turnId, mode: session.mode, end: { kind: "cancelled" } });
              return leftoverTurn(deps, cancelled.sessionId);
            });
            await handOnSlot({ db: deps.db, step: (name, action) => ctx.run(name, () => action(() => undefined)), ...durable }, cancelled.sessionId, cancelled.turnId);
            // Sends coalesced while this turn wound down run in a new invocation: this one is
            // being cancelled.
            if (leftover) await sendFollowUp(ctx, deps, leftover);
            return;
          } finally {
            tracked.release();
          }
        }
      },
    },
    // A turn's steps are journaled in Postgres, not in Restate: a whole turn may send Restate
    // nothing until it ends. Restate asks a run that was silent for the inactivity timeout to
    // suspend (a turn waiting on an approval does) and aborts one that cannot (a turn still
    // working) after the abort timeout; its retry would supersede the run. So both are long: a
    // turn has up to seven hours of work (25 model steps, tools of up to 15 minutes each).
    options: { inactivityTimeout: { hours: 1 }, abortTimeout: { hours: 6 } },
  });
}

/** Sends coalesced while a cancelled turn wound down, as one new turn (see startLeftoverTurn). */
async function leftoverTurn(deps: WorkerDeps, sessionId: string, seal?: Seal<TurnRequest | undefined>): Promise<TurnRequest | undefined> {
  const session = await deps.db.session.findUnique({ where: { id: sessionId }, select: { agentId: true } });
  return session ? startLeftoverTurn({ db: deps.db, sessionId, workspaceDir: workspaceDir(deps.dataDir, session.agentId, sessionId), seal }) : undefined;
}

function runtimeOf(deps: WorkerDeps): DurableRuntime {
  if (!deps.runtime) throw new Error("the worker needs its DurableRuntime to queue a turn");
  return deps.runtime;
}

async function sendFollowUp(ctx: restate.ObjectContext, deps: WorkerDeps, turn: TurnRequest): Promise<void> {
  const invocationId = await ctx.objectSendClient(sessionDefinition, turn.sessionId).runTurn(turn).invocationId;
  await ctx.run(`${turn.turnId}:invocation`, () => recordInvocation(deps.db, turn.sessionId, turn.turnId, invocationId));
}

/** Direct tool calls (spec §5.5): one call, no turn, in the worker's sandboxes. A worker that
 * dies mid-call has Restate run it again (at least once, like any retried request). */
export function toolsService(deps: WorkerDeps) {
  return restate.service({
    name: "tools",
    handlers: {
      call: async (ctx: restate.Context, request: DirectCallRequest): Promise<DirectCallOutcome> =>
        ctx.run("call", () => runDirectCall({ db: deps.db, dataDir: deps.dataDir, sandboxes: deps.sandboxes, request })),
    },
  });
}

export function createServices(deps: WorkerDeps) {
  return [healthService, sessionObject(deps), toolsService(deps), schedulerObject(deps), remindersObject(deps)];
}
