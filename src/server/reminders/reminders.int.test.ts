// Reminders on a real engine: set by the model through the built-in `remind` tool (the offline
// model's [remind …] directive), they come back to their session as a new turn; cancelled ones
// never fire; one whose session was deleted is dropped.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import type { AgentRef } from "@/server/sessions/start-session";
import { engineAgent } from "@/testing/engine-agents";
import { ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";
import { cancelReminder, createReminder, listReminders } from "./reminders";

let h: Harness;
let agent: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("reminding", engineAgent);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const waits = (n: number) => (log: SessionEvent[]) => ofType(log, "session.waiting").length >= n;

describe("reminders", () => {
  it("a reminder the model sets comes back to its session as a new turn", async () => {
    const started = await h.start(agent, { message: "[remind 1s: Check on order A1]" });
    const first = await h.eventsUntil(started.sessionId, waits(1));
    const result = ofType(first, "action.result")[0]!.data;
    expect(result).toMatchObject({
      toolName: "remind",
      isError: false,
      output: { id: expect.stringMatching(/^rem_call_/), fireAt: expect.any(String) },
    });
    expect(await listReminders(h.db, started.sessionId)).toHaveLength(1);
    const log = await h.eventsUntil(started.sessionId, waits(2), 15_000);
    const reminded = ofType(log, "message.received")[1]!;
    expect(reminded.data).toEqual({
      text: "Check on order A1",
      deliveryIds: [`dlv_${(result.output as { id: string }).id}`],
    });
    expect(ofType(log, "turn.completed")).toHaveLength(2);
    expect(await listReminders(h.db, started.sessionId)).toEqual([]);
  });

  it("a cancelled reminder never fires", async () => {
    const started = await h.start(agent, { message: "hello" });
    await h.eventsUntil(started.sessionId, waits(1));
    const { id } = await createReminder({
      db: h.db,
      runtime: h.runtime,
      sessionId: started.sessionId,
      input: { in: "800ms", prompt: "should not arrive" },
    });
    expect(await cancelReminder(h.db, started.sessionId, id)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(ofType(await h.events(started.sessionId), "message.received")).toHaveLength(1);
  });

  it("a reminder of a deleted session is dropped, and others still fire", async () => {
    const doomed = await h.start(agent, { message: "hello" });
    await h.eventsUntil(doomed.sessionId, waits(1));
    await createReminder({
      db: h.db,
      runtime: h.runtime,
      sessionId: doomed.sessionId,
      input: { in: "500ms", prompt: "to nobody" },
    });
    await h.db.session.delete({ where: { id: doomed.sessionId } });
    const alive = await h.start(agent, { message: "hello" });
    await h.eventsUntil(alive.sessionId, waits(1));
    await createReminder({
      db: h.db,
      runtime: h.runtime,
      sessionId: alive.sessionId,
      input: { in: "1s", prompt: "still here" },
    });
    const log = await h.eventsUntil(alive.sessionId, waits(2), 15_000);
    expect(ofType(log, "message.received")[1]!.data.text).toBe("still here");
  });

  it("refuses a reminder without a time or too far away", async () => {
    const started = await h.start(agent, { message: "hello" });
    await expect(
      createReminder({ db: h.db, runtime: h.runtime, sessionId: started.sessionId, input: { prompt: "when?" } }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    await expect(
      createReminder({
        db: h.db,
        runtime: h.runtime,
        sessionId: started.sessionId,
        input: { in: "400d", prompt: "later" },
      }),
    ).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("a tool sets one through ctx.host.reminders, bound to its session", async () => {
    const started = await h.start(agent, { message: '[call later {"prompt":"from the later tool"}]' });
    const first = await h.eventsUntil(started.sessionId, waits(1));
    expect(ofType(first, "action.result")[0]!.data).toMatchObject({
      isError: false,
      output: { made: { id: expect.any(String) }, pending: 1 },
    });
    const log = await h.eventsUntil(started.sessionId, waits(2), 15_000);
    expect(ofType(log, "message.received")[1]!.data.text).toBe("from the later tool");
  });
});
