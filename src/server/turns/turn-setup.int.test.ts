// A turn's setup reads the same on every run of the turn: the conversation stops at the turn's
// own message, so what was said after it (a nudge it took, a message that preempted it) is not
// in its history when it runs again after a crash.
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/server/db";
import { appendEvents } from "@/server/events/append-events";
import { createTestSession } from "@/testing/fixtures";
import { loadTurnSetup } from "./turn-setup";

const db = createDb(inject("databaseUrl"));

afterAll(async () => {
  await db.$disconnect();
});

describe("loadTurnSetup", () => {
  it("gives the conversation up to and including the turn's message, whatever came after", async () => {
    const { id: sessionId } = await createTestSession(db);
    const said = (
      type: "message.received" | "message.completed" | "nudge.delivered",
      turnId: string,
      text: string,
    ) => ({ type, turnId, data: { text, ...(type === "nudge.delivered" ? { deliveryId: "dlv_1" } : {}) } });
    await appendEvents({
      db,
      sessionId,
      events: [
        said("message.received", "t1", "hello"),
        said("message.completed", "t1", "hi there"),
        said("message.received", "t2", "look up A1"),
      ],
    });
    const load = () =>
      loadTurnSetup({ db, dataDir: "/tmp/agentfold-unused", sessionId, turnId: "t2", defaultModel: "local:scripted" });
    const first = await load();
    expect(first.messages).toEqual([
      { role: "user", content: "hello" },
      { role: "assistant", content: "hi there" },
      { role: "user", content: "look up A1" },
    ]);
    // Later: a nudge t2 took and a message that preempted it. Run again, t2 sees what it saw.
    await appendEvents({
      db,
      sessionId,
      events: [said("nudge.delivered", "t2", "also B2"), said("message.received", "t3", "never mind")],
    });
    expect((await load()).messages).toEqual(first.messages);
  });
});
