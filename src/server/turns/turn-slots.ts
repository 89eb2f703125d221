// `concurrency.maxRunningTurns` (spec §2.5): at most N turns of an agent run at once; the rest
// wait in arrival order, each told its place with `turn.queued` (1 = next) whenever it changes.
// A waiting turn holds no process: it parks on a Restate awakeable that the turn freeing a slot
// resolves. Slots are taken and handed on under the agent row's lock.
import type { Prisma, PrismaClient } from "@prisma/client";
import { appendEventsInTransaction } from "@/server/events/append-events";

export type SlotRequest = { agentId: string; sessionId: string; turnId: string; max: number; awakeableId: string };

/** Takes a slot, or queues the turn; `acquired: false` means wait for the awakeable. */
export async function acquireSlot(db: PrismaClient, request: SlotRequest): Promise<{ acquired: boolean }> {
  const { agentId, sessionId, turnId, max } = request;
  return db.$transaction(async (tx) => {
    await lockAgent(tx, agentId);
    const existing = await tx.turnAdmission.findUnique({ where: { turnId } });
    if (existing) return { acquired: existing.state === "running" };
    const running = await tx.turnAdmission.count({ where: { agentId, state: "running" } });
    const waiting = await tx.turnAdmission.count({ where: { agentId, state: "queued" } });
    if (running < max && waiting === 0) {
      await tx.turnAdmission.create({ data: { turnId, agentId, sessionId, state: "running" } });
      return { acquired: true };
    }
    await tx.turnAdmission.create({ data: { turnId, agentId, sessionId, state: "queued", awakeableId: request.awakeableId } });
    await appendEventsInTransaction({ tx, sessionId, events: [{ type: "turn.queued", turnId, data: { position: waiting + 1 }, idempotencyKey: `${turnId}:queued:${waiting + 1}` }] });
    return { acquired: false };
  });
}

/**
 * Gives up the turn's slot or place in the queue, promotes the turns at the head of the queue
 * into free slots, and tells the others their new place. Returns the awakeables to resolve.
 */
export async function releaseSlot(db: PrismaClient, options: { agentId: string; turnId: string; max: number }): Promise<string[]> {
  const { agentId, turnId, max } = options;
  return db.$transaction(async (tx) => {
    await lockAgent(tx, agentId);
    await tx.turnAdmission.deleteMany({ where: { turnId } });
    const running = await tx.turnAdmission.count({ where: { agentId, state: "running" } });
    const queued = await tx.turnAdmission.findMany({ where: { agentId, state: "queued" }, orderBy: { id: "asc" } });
    const promoted = queued.slice(0, Math.max(0, max - running));
    if (promoted.length > 0) await tx.turnAdmission.updateMany({ where: { id: { in: promoted.map((row) => row.id) } }, data: { state: "running" } });
    const still = queued.slice(promoted.length);
    for (const [i, row] of still.entries()) {
      const position = i + 1;
      await appendEventsInTransaction({ tx, sessionId: row.sessionId, events: [{ type: "turn.queued", turnId: row.turnId, data: { position }, idempotencyKey: `${row.turnId}:queued:${position}` }] });
    }
    return promoted.flatMap((row) => (row.awakeableId ? [row.awakeableId] : []));
  });
}

async function lockAgent(tx: Prisma.TransactionClient, agentId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Agent" WHERE id = ${agentId} FOR UPDATE`;
}

/** releaseSlot for a turn known only by its session (the cancellation path). */
export async function releaseTurnSlot(db: PrismaClient, sessionId: string, turnId: string): Promise<string[]> {
  const session = await db.session.findUnique({ where: { id: sessionId }, select: { agentId: true, agentVersion: { select: { manifest: true } } } });
  const max = (session?.agentVersion.manifest as { maxRunningTurns?: number } | null)?.maxRunningTurns;
  if (!session || !max) return [];
  return releaseSlot(db, { agentId: session.agentId, turnId, max });
}
