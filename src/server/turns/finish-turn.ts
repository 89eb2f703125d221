// Ends a turn in one transaction: the final message, turn.completed / turn.failed, and then what
// the session does next. A task session ends (session.completed / session.failed). A chat session
// whose coalesced sends piled up during the turn drains them into one follow-up turn (its
// `message.received` lists their deliveryIds in arrival order); otherwise it waits. A turn that a
// newer send preempted only records its own end: the session already belongs to the next turn.
import type { PrismaClient } from "@prisma/client";
import type { Usage } from "@/agents/sdk/events";
import type { TurnRequest } from "@/server/durable/runtime";
import { appendEventsInTransaction, type NewEvent } from "@/server/events/append-events";
import { newTurnId } from "@/server/sessions/session-urls";
import { claimPendingDeliveries } from "./pending-deliveries";

export type TurnEnd =
  | { kind: "completed"; text: string; usage: Usage; cost?: { totalUsd: number; model: string }; result?: unknown }
  | { kind: "failed"; message: string; text?: string; usage?: Usage }
  | { kind: "cancelled" };

export async function finishTurn(options: {
  db: PrismaClient;
  sessionId: string;
  turnId: string;
  mode: "chat" | "task";
  workspaceDir: string;
  end: TurnEnd;
}): Promise<TurnRequest | undefined> {
  const { db, sessionId, turnId, mode, end } = options;
  const drainKey = `${turnId}:drain`;
  return db.$transaction(async (tx) => {
    // Already finished (this step is running again after a crash that followed its commit):
    // hand back the same drained turn, if there was one.
    const finished = await tx.sessionEvent.findUnique({ where: { sessionId_idempotencyKey: { sessionId, idempotencyKey: `${turnId}:finished` } } });
    if (finished) {
      const drained = await tx.sessionEvent.findUnique({ where: { sessionId_idempotencyKey: { sessionId, idempotencyKey: drainKey } } });
      return drained ? { sessionId, turnId: drained.turnId!, message: (drained.data as { text: string }).text } : undefined;
    }
    const [row] = await tx.$queryRaw<{ runningTurnId: string | null }[]>`SELECT "runningTurnId" FROM sessions WHERE id = ${sessionId} FOR UPDATE`;
    const events: NewEvent[] = [];
    const text = end.kind === "cancelled" ? undefined : end.text;
    if (text !== undefined) events.push({ type: "message.completed", turnId, data: { text }, idempotencyKey: `${turnId}:message` });
    events.push(
      end.kind === "completed"
        ? {
            type: "turn.completed",
            turnId,
            data: { usage: end.usage, ...(end.cost ? { cost: end.cost } : {}), ...(end.result !== undefined && end.result !== null ? { result: end.result } : {}) },
            idempotencyKey: `${turnId}:finished`,
          }
        : {
            type: "turn.failed",
            turnId,
            data: end.kind === "cancelled" ? { message: "turn interrupted", status: "cancelled" } : { message: end.message, status: "error" },
            idempotencyKey: `${turnId}:finished`,
          },
    );
    let next: TurnRequest | undefined;
    if (mode === "task") {
      events.push(
        end.kind === "completed"
          ? { type: "session.completed", turnId, data: end.result !== undefined && end.result !== null ? { result: end.result } : {}, idempotencyKey: `${turnId}:session-end` }
          : { type: "session.failed", turnId, data: { message: end.kind === "cancelled" ? "turn interrupted" : end.message }, idempotencyKey: `${turnId}:session-end` },
      );
      await tx.session.update({ where: { id: sessionId }, data: { status: end.kind === "completed" ? "completed" : "failed", runningTurnId: null, runningInvocationId: null } });
    } else if (row?.runningTurnId === turnId) {
      const pending = await claimPendingDeliveries(tx, sessionId, options.workspaceDir);
      if (pending.length > 0) {
        next = { sessionId, turnId: newTurnId(), message: pending.map((p) => p.text).join("\n\n") };
        events.push({ type: "message.received", turnId: next.turnId, data: { text: next.message, deliveryIds: pending.map((p) => p.deliveryId) }, idempotencyKey: drainKey });
        await tx.session.update({ where: { id: sessionId }, data: { runningTurnId: next.turnId } });
      } else {
        events.push({ type: "session.waiting", turnId, data: {}, idempotencyKey: `${turnId}:waiting` });
        await tx.session.update({ where: { id: sessionId }, data: { status: "waiting", runningTurnId: null, runningInvocationId: null } });
      }
    }
    await appendEventsInTransaction({ tx, sessionId, events });
    return next;
  });
}
