// A turn cancelled while still queued behind another never runs, so interruptTurn records its
// end itself; a turn the engine was told about records its own.
import crypto from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/server/db";
import type { DurableRuntime } from "@/server/durable/runtime";
import { appendEvents } from "@/server/events/append-events";
import { readEvents } from "@/server/events/read-events";
import { createTestSession } from "@/testing/fixtures";
import { interruptTurn } from "./interrupt-turn";

const db = createDb(inject("databaseUrl"));

afterAll(async () => {
  await db.$disconnect();
});

// Only cancel is used; its answer is what Restate's admin API says (200 done, 202 signalled).
const engine = (outcome: "done" | "signalled") => ({ cancel: async () => outcome }) as unknown as DurableRuntime;

async function runningSession() {
  const session = await createTestSession(db);
  const turnId = `turn_${crypto.randomUUID().slice(0, 8)}`;
  await db.session.update({
    where: { id: session.id },
    data: { status: "running", runningTurnId: turnId, runningInvocationId: "inv_1" },
  });
  await appendEvents({
    db,
    sessionId: session.id,
    events: [{ type: "message.received", turnId, data: { text: "hi" } }],
  });
  return { sessionId: session.id, turnId };
}

describe("interruptTurn", () => {
  it("records the end of a turn that never ran: turn.failed (cancelled), then the session waits", async () => {
    const { sessionId, turnId } = await runningSession();
    await interruptTurn({ db, runtime: engine("done"), sessionId, turnId, invocationId: "inv_1" });
    const types = (await readEvents({ db, sessionId, fromIndex: 0 })).map((e) => e.type);
    expect(types).toEqual(["message.received", "turn.failed", "session.waiting"]);
    expect(
      await db.session.findUniqueOrThrow({ where: { id: sessionId }, select: { status: true, runningTurnId: true } }),
    ).toEqual({ status: "waiting", runningTurnId: null });
  });

  it("leaves the end to the running handler when the engine signalled it", async () => {
    const { sessionId, turnId } = await runningSession();
    await interruptTurn({ db, runtime: engine("signalled"), sessionId, turnId, invocationId: "inv_1" });
    expect((await readEvents({ db, sessionId, fromIndex: 0 })).map((e) => e.type)).toEqual(["message.received"]);
  });

  it("keeps the stop when the engine cannot be reached, and does not fail the caller", async () => {
    const { sessionId, turnId } = await runningSession();
    const unreachable = {
      cancel: async () => Promise.reject(new Error("connect ECONNREFUSED")),
    } as unknown as DurableRuntime;
    await interruptTurn({ db, runtime: unreachable, sessionId, turnId, invocationId: "inv_1" });
    expect(await db.turnStop.count({ where: { turnId } })).toBe(1);
    expect((await readEvents({ db, sessionId, fromIndex: 0 })).map((e) => e.type)).toEqual(["message.received"]);
  });
});
