// Hands a recorded turn to the durable engine and remembers its invocation. The send is retried
// (the turn id is its idempotency key, so a retry cannot queue it twice); if the engine stays
// unreachable the turn is recorded as failed, so the session does not stay "running" forever
// with a turn nobody runs, and the caller gets 503.
import type { PrismaClient } from "@prisma/client";
import type { DurableRuntime, TurnRequest } from "@/server/durable/runtime";
import { AppError } from "@/server/http/app-error";
import { finishTurn } from "@/server/turns/finish-turn";
import { recordInvocation } from "./record-invocation";

const retryDelaysMs = [200, 800];

export async function queueTurn(options: { db: PrismaClient; runtime: DurableRuntime; turn: TurnRequest; mode: "chat" | "task" }): Promise<void> {
  const { db, runtime, turn, mode } = options;
  let lastError: unknown;
  for (let attempt = 0; attempt <= retryDelaysMs.length; attempt++) {
    try {
      const { invocationId } = await runtime.sendTurn(turn);
      await recordInvocation(db, turn.sessionId, turn.turnId, invocationId);
      return;
    } catch (error) {
      lastError = error;
      if (attempt < retryDelaysMs.length) await new Promise((resolve) => setTimeout(resolve, retryDelaysMs[attempt]));
    }
  }
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  await finishTurn({ db, sessionId: turn.sessionId, turnId: turn.turnId, mode, end: { kind: "failed", message: `the turn could not be queued: ${reason}` } });
  throw new AppError("unavailable", "the durable engine is not reachable; the message was recorded and its turn failed, try again shortly");
}
