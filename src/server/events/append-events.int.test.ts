import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/server/db";
import { createTestSession } from "@/testing/fixtures";
import { freshDatabaseUrl } from "@/testing/fresh-database";
import { appendEvents, eventsChannel } from "./append-events";
import { appendStatement } from "./group-commit";
import { readEvents } from "./read-events";

const db = createDb(inject("databaseUrl"));
afterAll(() => db.$disconnect());

const text = (n: number) => ({ type: "message.appended" as const, data: { delta: `d${n}` }, turnId: "turn_1" });

describe("appendEvents", () => {
  it("keeps indexes gapless and unique under concurrent appends", async () => {
    const session = await createTestSession(db);
    const batches = await Promise.all(
      Array.from({ length: 20 }, (_, b) => appendEvents({ db, sessionId: session.id, events: [0, 1, 2, 3, 4].map((i) => text(b * 5 + i)) })),
    );
    for (const batch of batches) {
      const indexes = batch.map((e) => e.index);
      expect(indexes).toEqual([indexes[0]!, indexes[0]! + 1, indexes[0]! + 2, indexes[0]! + 3, indexes[0]! + 4]);
    }
    const stored = await readEvents({ db, sessionId: session.id, fromIndex: 0, limit: 1000 });
    expect(stored.map((e) => e.index)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it("appends nothing for an idempotency key already in the log and returns the stored event", async () => {
    const session = await createTestSession(db);
    const [first] = await appendEvents({ db, sessionId: session.id, events: [{ ...text(1), idempotencyKey: "turn_1/step_0/delta_0" }] });
    const replay = await appendEvents({
      db,
      sessionId: session.id,
      events: [{ ...text(1), idempotencyKey: "turn_1/step_0/delta_0" }, { ...text(2), idempotencyKey: "turn_1/step_0/delta_1" }],
    });
    expect(replay[0]).toEqual(first);
    expect(replay[1]?.index).toBe(1);
    expect(await db.sessionEvent.count({ where: { sessionId: session.id } })).toBe(2);
  });

  it("rejects an event that does not match the vocabulary and writes nothing", async () => {
    const session = await createTestSession(db);
    await expect(appendEvents({ db, sessionId: session.id, events: [text(1), { type: "message.appended", data: { delta: 5 } }] })).rejects.toThrow();
    expect(await db.sessionEvent.count({ where: { sessionId: session.id } })).toBe(0);
    expect((await db.session.findUniqueOrThrow({ where: { id: session.id } })).nextIndex).toBe(0);
  });

  it("writes concurrent appends of several sessions together without mixing them up", async () => {
    const [a, b] = [await createTestSession(db), await createTestSession(db)];
    const results = await Promise.allSettled([
      appendEvents({ db, sessionId: a.id, events: [text(1), text(2)] }),
      appendEvents({ db, sessionId: "ses_missing", events: [text(3)] }),
      appendEvents({ db, sessionId: b.id, events: [{ ...text(4), idempotencyKey: "k" }] }),
      appendEvents({ db, sessionId: a.id, events: [text(5)] }),
      appendEvents({ db, sessionId: b.id, events: [{ ...text(4), idempotencyKey: "k" }, text(6)] }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: "not_found" });
    const values = results.map((r) => (r.status === "fulfilled" ? r.value.map((e) => [e.sessionId === a.id ? "a" : "b", e.index, e.data]) : null));
    expect(values[0]).toEqual([["a", 0, { delta: "d1" }], ["a", 1, { delta: "d2" }]]);
    expect(values[2]).toEqual([["b", 0, { delta: "d4" }]]);
    expect(values[3]).toEqual([["a", 2, { delta: "d5" }]]);
    // The repeated key returns the stored event; only the new one is appended.
    expect(values[4]).toEqual([["b", 0, { delta: "d4" }], ["b", 1, { delta: "d6" }]]);
  });

  it("answers not_found for an unknown session", async () => {
    await expect(appendEvents({ db, sessionId: "ses_nope", events: [text(1)] })).rejects.toMatchObject({ code: "not_found" });
  });

  it("stamps the envelope: ISO time, turn id, session id", async () => {
    const session = await createTestSession(db);
    const [event] = await appendEvents({ db, sessionId: session.id, events: [text(7)], clock: () => new Date("2026-11-29T12:00:00.000Z") });
    expect(event).toEqual({ type: "message.appended", index: 0, sessionId: session.id, turnId: "turn_1", at: "2026-11-29T12:00:00.000Z", data: { delta: "d7" } });
  });

  it("looks events up by index however much the log grew after the statement was planned", async () => {
    // A database of its own: the count of full scans below must be this test's alone.
    const url = await freshDatabaseUrl(inject("databaseUrl"));
    const own = createDb(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const session = await createTestSession(own);
      let n = 0;
      const append = () => appendStatement(client, [{ sessionId: session.id, events: [{ ...text(n), idempotencyKey: `k${n++}` }], at: new Date() }], eventsChannel);
      // Planned (and kept) on this connection while the log is nearly empty …
      for (let i = 0; i < 10; i++) await append();
      // … then the log grows, with no ANALYZE in between.
      await client.query(
        `INSERT INTO session_events ("sessionId", index, type, at, data, "idempotencyKey")
         SELECT $1, 1000 + i, 'message.appended', now(), '{"delta":"x"}', 'bulk' || i FROM generate_series(1, 20000) AS i`,
        [session.id],
      );
      const fullScans = async () => {
        await client.query(`SELECT pg_stat_force_next_flush()`);
        const { rows } = await client.query<{ seq_scan: string }>(`SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'session_events'`);
        return Number(rows[0]!.seq_scan);
      };
      const before = await fullScans();
      for (let i = 0; i < 10; i++) await append();
      // The idempotency check of each append is an index lookup, not a scan of 20,000 rows.
      expect(await fullScans()).toBe(before);
    } finally {
      await client.end();
      await own.$disconnect();
    }
  });
});
