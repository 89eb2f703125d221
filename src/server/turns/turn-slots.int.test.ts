// maxRunningTurns bookkeeping on the real database: queue order and positions, a release that
// runs again after a crash still wakes the promoted turn, and a deleted session's slot is freed.
import crypto from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/server/db";
import { readEvents } from "@/server/events/read-events";
import { createTestAgent } from "@/testing/fixtures";
import { acknowledgeSlot, acquireSlot, releaseSlot, releaseTurnSlot } from "./turn-slots";

const db = createDb(inject("databaseUrl"));

afterAll(async () => {
  await db.$disconnect();
});

async function capped() {
  const { agent, version } = await createTestAgent(db);
  await db.agentVersion.update({ where: { id: version.id }, data: { manifest: { maxRunningTurns: 1 } } });
  const session = async () => {
    const id = `ses_${crypto.randomUUID().replace(/-/g, "")}`;
    await db.session.create({
      data: { id, agentId: agent.id, agentVersionId: version.id, ownerKind: "local", ownerId: "t" },
    });
    return id;
  };
  return { agentId: agent.id, session };
}

describe("turn slots", () => {
  it("queues in order, hands the slot on, and re-running a release still wakes the promoted turn", async () => {
    const { agentId, session } = await capped();
    const [s1, s2, s3] = [await session(), await session(), await session()];
    const slot = (sessionId: string, turnId: string) =>
      acquireSlot(db, { agentId, sessionId, turnId, max: 1, awakeableId: `awk_${turnId}` });
    expect(await slot(s1, "t1")).toEqual({ acquired: true });
    expect(await slot(s2, "t2")).toEqual({ acquired: false });
    expect(await slot(s3, "t3")).toEqual({ acquired: false });
    expect(await slot(s2, "t2")).toEqual({ acquired: false }); // a re-run changes nothing
    expect(await releaseSlot(db, { agentId, turnId: "t1", max: 1 })).toEqual(["awk_t2"]);
    expect(await releaseSlot(db, { agentId, turnId: "t1", max: 1 })).toEqual(["awk_t2"]);
    await acknowledgeSlot(db, "t2");
    expect(await releaseSlot(db, { agentId, turnId: "t1", max: 1 })).toEqual([]);
    const positions = (await readEvents({ db, sessionId: s3, fromIndex: 0 }))
      .filter((e) => e.type === "turn.queued")
      .map((e) => (e.data as { position: number }).position);
    expect(positions).toEqual([2, 1]);
  });

  it("frees the slot of a turn whose session was deleted", async () => {
    const { agentId, session } = await capped();
    const [s1, s2] = [await session(), await session()];
    await acquireSlot(db, { agentId, sessionId: s1, turnId: "d1", max: 1, awakeableId: "awk_d1" });
    await acquireSlot(db, { agentId, sessionId: s2, turnId: "d2", max: 1, awakeableId: "awk_d2" });
    await db.session.delete({ where: { id: s1 } });
    expect(await releaseTurnSlot(db, s1, "d1")).toEqual(["awk_d2"]);
    expect(await db.turnAdmission.findMany({ where: { agentId }, select: { turnId: true, state: true } })).toEqual([
      { turnId: "d2", state: "running" },
    ]);
  });
});
