// Stop, preempt and delete interrupt a turn the same way: a NOTIFY so that the worker running it
// aborts its model stream and tool at once, then Restate's cancellation. A turn still queued
// behind another never ran, so no handler will record its end: it is recorded here.
import type { PrismaClient } from "@prisma/client";
import type { DurableRuntime } from "@/server/durable/runtime";
import { requestTurnCancel } from "./cancellation";
import { finishTurn } from "./finish-turn";
import { logWarning } from "@/server/logging/logger";

export async function interruptTurn(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  sessionId: string;
  turnId: string;
  invocationId: string | null;
}): Promise<void> {
  const { db, runtime, sessionId, turnId, invocationId } = options;
  await requestTurnCancel(db, sessionId, turnId);
  if (!invocationId) return;
  // An engine that cannot be reached now still leaves the stop to the notice and the kept stop
  // (a run of the turn that starts later stops at once); what follows is not held up by it.
  const outcome = await runtime.cancel(invocationId).catch((error: Error) => {
    logWarning(`could not cancel invocation ${invocationId} of turn ${turnId}; its stop is kept: ${error.message}`);
    return "signalled" as const;
  });
  if (outcome !== "done") return;
  const session = await db.session.findUnique({ where: { id: sessionId }, select: { mode: true } });
  if (session) await finishTurn({ db, sessionId, turnId, mode: session.mode, end: { kind: "cancelled" } });
}
