// Stop and preempt reach the process running a turn through Postgres NOTIFY (any web process
// can ask, any worker may be running it): the worker aborts that turn's model stream and tool
// within milliseconds. The request is also kept (turn_stops), so a run of the turn that starts
// later — Restate retrying it after a crash — stops too. Restate's own cancellation still
// follows, for turns that are queued or waiting on the engine rather than on a model or a tool.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { turnCancelChannel } from "@/server/channels";
import { listen } from "@/server/events/pg-listener";

/** Asks whichever worker runs `turnId` to abort it, now or when it next starts. Harmless if none does. */
export async function requestTurnCancel(db: PrismaClient, sessionId: string, turnId: string): Promise<void> {
  await poolOf(db).query({
    name: "agentfold-request-turn-cancel",
    text: `WITH kept AS (
             INSERT INTO turn_stops ("turnId", "sessionId", at) SELECT $2, id, now() AT TIME ZONE 'UTC' FROM sessions WHERE id = $3 ON CONFLICT ("turnId") DO NOTHING
           )
           SELECT pg_notify($1, $2)`,
    values: [turnCancelChannel.name, turnId, sessionId],
  });
}

export type TurnCancellations = {
  /** The abort signal of a turn this process is about to run; release it when the turn ends. */
  track: (turnId: string) => { signal: AbortSignal; abort: () => void; release: () => void };
  close: () => Promise<void>;
};

// A notice can beat the turn to this process (the turn was still queued): remember it briefly.
const earlyNoticeMs = 60_000;

export async function createTurnCancellations(options: {
  databaseUrl: string;
  log?: (message: string) => void;
}): Promise<TurnCancellations> {
  const running = new Map<string, AbortController>();
  const early = new Map<string, number>();
  const listener = await listen({
    name: "turn cancellations",
    databaseUrl: options.databaseUrl,
    log: options.log,
    channels: {
      [turnCancelChannel.name]: (payload) => {
        const turnId = turnCancelChannel.decode(payload);
        if (!turnId) return;
        const controller = running.get(turnId);
        if (controller) return controller.abort();
        const now = Date.now();
        for (const [id, at] of early) if (now - at > earlyNoticeMs) early.delete(id);
        early.set(turnId, now);
      },
    },
  });
  return {
    track(turnId) {
      const controller = new AbortController();
      if (early.delete(turnId)) controller.abort();
      running.set(turnId, controller);
      return {
        signal: controller.signal,
        abort: () => controller.abort(),
        release: () => {
          if (running.get(turnId) === controller) running.delete(turnId);
        },
      };
    },
    close: () => listener.close(),
  };
}
