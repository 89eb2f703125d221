// `concurrency.maxRunningTurns` (docs/turns.md): at most N turns of an agent run at once; the rest
// wait in arrival order, each told its place with `turn.queued` (1 = next) whenever it changes.
// A waiting turn holds no process: it parks on a Restate awakeable that the turn freeing a slot
// resolves. Slots are taken and handed on under the agent row's lock.
import type pg from "pg";
import type { PrismaClient } from "@prisma/client";
import { pgTransaction, poolOf } from "@/server/db";
import { appendEventsInTransaction } from "@/server/events/append-events";

export type SlotRequest = { agentId: string; sessionId: string; turnId: string; max: number; awakeableId: string };

type Admission = {
  id: string;
  turnId: string;
  sessionId: string;
  state: "running" | "queued";
  awakeableId: string | null;
};

const queuedEvent = (turnId: string, position: number) => ({
  type: "turn.queued" as const,
  turnId,
  data: { position },
  idempotencyKey: `${turnId}:queued:${position}`,
});

/** Takes a slot, or queues the turn; `acquired: false` means wait for the awakeable. */
export async function acquireSlot(db: PrismaClient, request: SlotRequest): Promise<{ acquired: boolean }> {
  const { agentId, sessionId, turnId, max } = request;
  return pgTransaction(db, async (client) => {
    const admissions = await lockAdmissions(client, agentId);
    const mine = admissions.find((row) => row.turnId === turnId);
    if (mine) return { acquired: mine.state === "running" };
    const running = admissions.filter((row) => row.state === "running").length;
    const waiting = admissions.filter((row) => row.state === "queued").length;
    const acquired = running < max && waiting === 0;
    await client.query(
      `INSERT INTO turn_admissions ("turnId", "agentId", "sessionId", state, "awakeableId") VALUES ($1, $2, $3, $4, $5)`,
      [turnId, agentId, sessionId, acquired ? "running" : "queued", acquired ? null : request.awakeableId],
    );
    if (!acquired) await appendEventsInTransaction({ client, sessionId, events: [queuedEvent(turnId, waiting + 1)] });
    return { acquired };
  });
}

/**
 * Gives up the turn's slot or place in the queue, promotes the turns at the head of the queue
 * into free slots, and tells the others their new place. Returns the awakeables to resolve: of
 * every promoted turn that has not woken up yet (see acknowledgeSlot), so a release that runs
 * again after a crash wakes them all the same (resolving twice is harmless).
 */
export async function releaseSlot(
  db: PrismaClient,
  options: { agentId: string; turnId: string; max: number },
): Promise<string[]> {
  const { agentId, turnId, max } = options;
  return pgTransaction(db, async (client) => {
    const admissions = (await lockAdmissions(client, agentId)).filter((row) => row.turnId !== turnId);
    await client.query(`DELETE FROM turn_admissions WHERE "turnId" = $1`, [turnId]);
    const running = admissions.filter((row) => row.state === "running").length;
    const queued = admissions.filter((row) => row.state === "queued");
    const promoted = queued.slice(0, Math.max(0, max - running));
    if (promoted.length > 0)
      await client.query(`UPDATE turn_admissions SET state = 'running' WHERE id = ANY($1::bigint[])`, [
        promoted.map((row) => row.id),
      ]);
    for (const [i, row] of queued.slice(promoted.length).entries()) {
      await appendEventsInTransaction({ client, sessionId: row.sessionId, events: [queuedEvent(row.turnId, i + 1)] });
    }
    const unwoken = admissions.filter((row) => row.state === "running" && row.awakeableId);
    return [...unwoken, ...promoted].flatMap((row) => (row.awakeableId ? [row.awakeableId] : []));
  });
}

/** The agent's admissions in arrival order, with the agent row locked for the transaction. */
async function lockAdmissions(client: pg.PoolClient, agentId: string): Promise<Admission[]> {
  await client.query(`SELECT id FROM "Agent" WHERE id = $1 FOR UPDATE`, [agentId]);
  const { rows } = await client.query<Admission>(
    `SELECT id, "turnId", "sessionId", state, "awakeableId" FROM turn_admissions WHERE "agentId" = $1 ORDER BY id`,
    [agentId],
  );
  return rows;
}

/** A promoted turn is awake: its release no longer needs to wake it. */
export async function acknowledgeSlot(db: PrismaClient, turnId: string): Promise<void> {
  await poolOf(db).query(`UPDATE turn_admissions SET "awakeableId" = NULL WHERE "turnId" = $1`, [turnId]);
}

/**
 * releaseSlot for a turn known by id (the cancellation path). The cap comes from the session's
 * pinned version, or — the session deleted meanwhile — the agent's active version.
 */
export async function releaseTurnSlot(db: PrismaClient, sessionId: string, turnId: string): Promise<string[]> {
  const { rows } = await poolOf(db).query<{ agentId: string; max: number | null }>(
    `SELECT t."agentId", coalesce((sv.manifest->>'maxRunningTurns')::int, (av.manifest->>'maxRunningTurns')::int) AS max
       FROM turn_admissions t
       JOIN "Agent" a ON a.id = t."agentId"
       LEFT JOIN sessions s ON s.id = $1
       LEFT JOIN "AgentVersion" sv ON sv.id = s."agentVersionId"
       LEFT JOIN "AgentVersion" av ON av.id = a."activeVersionId"
      WHERE t."turnId" = $2`,
    [sessionId, turnId],
  );
  const row = rows[0];
  if (!row) return [];
  return releaseSlot(db, { agentId: row.agentId, turnId, max: row.max ?? 1 });
}
