// Follows one turn in a session's log until it ends or parks on approvals: the turn that took a
// send (found by its delivery id on `message.received`). Reads the log from an index, woken by
// the event hub's notices when there is one (the log stays the source of truth; a lost notice
// only delays the next read) and polling otherwise. An abort stops the turn (`stop`), then waits a
// little for its end to be recorded.
import type { PrismaClient } from "@prisma/client";
import type { SessionEvent } from "@/agents/sdk/events";
import type { EventHub } from "@/server/events/event-hub";
import { readEvents } from "@/server/events/read-events";
import type { AskResult } from "./ask-agent-schema";

export type TurnOutcome = Omit<AskResult, "sessionId" | "pendingApprovals">;

const pageSize = 500;
/** How long a stopped turn may take to record its end before the wait gives up on it. */
const stopGraceMs = 10_000;

export async function waitForAskedTurn(options: {
  db: PrismaClient;
  hub?: Pick<EventHub, "subscribe">;
  sessionId: string;
  deliveryId: string;
  /** Where the log is read from: the turn's `message.received` is at or after it. */
  fromIndex: number;
  signal?: AbortSignal;
  stop: () => Promise<unknown>;
  onProgress?: (event: SessionEvent) => void;
}): Promise<TurnOutcome> {
  const { db, hub, sessionId, deliveryId, signal, stop, onProgress } = options;
  let next = options.fromIndex;
  let turnId: string | undefined;
  let reply: string | null = null;
  const parked = new Set<string>();
  let stopDeadline: number | undefined;
  // A notice (or the abort) that comes while the log is being read makes the next read immediate.
  let isDirty = false;
  let wake = () => {};
  const poke = () => {
    isDirty = true;
    wake();
  };
  // Subscribed before the first read, so nothing appended in between goes unnoticed.
  const unsubscribe = hub?.subscribe(sessionId, poke) ?? (() => {});
  signal?.addEventListener("abort", poke);
  try {
    for (let delayMs = 50; ; delayMs = Math.min(delayMs * 2, 1_000)) {
      isDirty = false;
      const events = await readEvents({ db, sessionId, fromIndex: next, limit: pageSize });
      for (const event of events) {
        next = event.index + 1;
        if (!turnId && event.type === "message.received" && event.data.deliveryIds?.includes(deliveryId))
          turnId = event.turnId;
        if (!turnId || event.turnId !== turnId) continue;
        onProgress?.(event);
        if (event.type === "message.completed") reply = event.data.text;
        else if (event.type === "action.approval_requested") parked.add(event.data.callId);
        else if (event.type === "action.approval_resolved") parked.delete(event.data.callId);
        else if (event.type === "turn.completed") return { status: "completed", reply };
        else if (event.type === "turn.failed")
          return {
            status: event.data.status === "cancelled" ? "cancelled" : "failed",
            reply,
            error: event.data.message,
          };
      }
      if (events.length === pageSize) continue;
      // A parked turn waits for a person, maybe for hours: the asker hears so now (and checks later).
      if (parked.size > 0 && stopDeadline === undefined) return { status: "waiting_approval", reply };
      if (signal?.aborted && stopDeadline === undefined) {
        stopDeadline = Date.now() + stopGraceMs;
        await stop();
        continue;
      }
      if (stopDeadline !== undefined && Date.now() > stopDeadline)
        return { status: "cancelled", reply, error: "turn interrupted" };
      if (isDirty) continue;
      // With the hub, reads follow its notices; the slow poll only covers a notice lost in transit.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, hub ? 5_000 : delayMs);
        function done() {
          clearTimeout(timer);
          wake = () => {};
          resolve();
        }
        wake = done;
      });
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener("abort", poke);
  }
}
