import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb, pgTransaction, poolOf } from "@/server/db";
import { sessionEventsChannel } from "@/server/channels";
import { appendEvents } from "@/server/events/append-events";
import { readEvents } from "@/server/events/read-events";
import { createTestAgent } from "@/testing/fixtures";
import { recordSessionStart, type SessionStart } from "./record-session-start";

const db = createDb(inject("databaseUrl"));
afterAll(() => db.$disconnect());

async function newStart(overrides: Partial<SessionStart> = {}): Promise<SessionStart> {
  const { agent, version } = await createTestAgent(db);
  return {
    sessionId: `ses_${crypto.randomUUID().replace(/-/g, "")}`,
    turnId: "turn_1",
    agentId: agent.id,
    versionId: version.id,
    principal: { kind: "app", id: "token:t" },
    channelId: "http",
    mode: "chat",
    continuationHash: "h",
    message: "hello",
    deliveryId: "dlv_1",
    ...overrides,
  };
}

async function listen(): Promise<{ payloads: string[]; close: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  const payloads: string[] = [];
  client.on("notification", (message) => payloads.push(message.payload ?? ""));
  await client.connect();
  await client.query(`LISTEN ${sessionEventsChannel.name}`);
  return { payloads, close: () => client.end() };
}

describe("recordSessionStart", () => {
  it("writes the running session and its first two events, and later appends continue at index 2", async () => {
    const start = await newStart({ title: "Orders", dryRun: true });
    await recordSessionStart(poolOf(db), start);
    const session = await db.session.findUniqueOrThrow({ where: { id: start.sessionId } });
    expect(session).toMatchObject({
      status: "running",
      runningTurnId: "turn_1",
      nextIndex: 2,
      ownerKind: "app",
      ownerId: "token:t",
      title: "Orders",
      dryRun: true,
      continuationTokenHash: "h",
    });
    const [added] = await appendEvents({
      db,
      sessionId: start.sessionId,
      events: [{ type: "turn.started", turnId: "turn_1", data: {} }],
    });
    expect(added?.index).toBe(2);
    const events = await readEvents({ db, sessionId: start.sessionId, fromIndex: 0 });
    expect(events.map(({ index, type, turnId, data }) => ({ index, type, turnId, data }))).toEqual([
      {
        index: 0,
        type: "session.started",
        turnId: undefined,
        data: { channelId: "http", mode: "chat", purpose: "live", title: "Orders", dryRun: true },
      },
      { index: 1, type: "message.received", turnId: "turn_1", data: { text: "hello", deliveryIds: ["dlv_1"] } },
      { index: 2, type: "turn.started", turnId: "turn_1", data: {} },
    ]);
  });

  it("notifies subscribers of the last index only once the caller's transaction commits, and writes nothing if it rolls back", async () => {
    const listener = await listen();
    try {
      const kept = await newStart();
      await pgTransaction(db, async (client) => {
        await recordSessionStart(client, kept);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(listener.payloads).not.toContain(`${kept.sessionId}:1`);
      });
      const dropped = await newStart();
      await expect(
        pgTransaction(db, async (client) => {
          await recordSessionStart(client, dropped);
          throw new Error("abandoned");
        }),
      ).rejects.toThrow("abandoned");
      await expect.poll(() => listener.payloads).toContain(`${kept.sessionId}:1`);
      expect(listener.payloads.filter((p) => p.startsWith(kept.sessionId))).toEqual([`${kept.sessionId}:1`]);
      expect(listener.payloads.some((p) => p.startsWith(dropped.sessionId))).toBe(false);
      expect(await db.sessionEvent.count({ where: { sessionId: dropped.sessionId } })).toBe(0);
    } finally {
      await listener.close();
    }
  });

  it("refuses a message the event vocabulary rejects, before writing anything", async () => {
    const start = await newStart({ deliveryId: "" });
    await expect(recordSessionStart(poolOf(db), start)).rejects.toThrow();
    expect(await db.session.count({ where: { id: start.sessionId } })).toBe(0);
  });
});
