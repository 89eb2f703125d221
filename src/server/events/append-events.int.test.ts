import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb, poolOf } from "@/server/db";
import { createTestSession } from "@/testing/fixtures";
import { freshDatabaseUrl } from "@/testing/fresh-database";
import { sessionEventsChannel } from "@/server/channels";
import { appendEvents, type StepRecord } from "./append-events";
import { appendStatement, hurryAppends } from "./group-commit";
import { deliverCoalesced } from "@/server/sessions/deliver-coalesced";
import { readEvents } from "./read-events";

const db = createDb(inject("databaseUrl"));
afterAll(() => db.$disconnect());

const text = (n: number) => ({ type: "message.appended" as const, data: { delta: `d${n}` }, turnId: "turn_1" });

describe("appendEvents", () => {
  it("keeps indexes gapless and unique under concurrent appends", async () => {
    const session = await createTestSession(db);
    const batches = await Promise.all(
      Array.from({ length: 20 }, (_, b) =>
        appendEvents({ db, sessionId: session.id, events: [0, 1, 2, 3, 4].map((i) => text(b * 5 + i)) }),
      ),
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
    const [first] = await appendEvents({
      db,
      sessionId: session.id,
      events: [{ ...text(1), idempotencyKey: "turn_1/step_0/delta_0" }],
    });
    const replay = await appendEvents({
      db,
      sessionId: session.id,
      events: [
        { ...text(1), idempotencyKey: "turn_1/step_0/delta_0" },
        { ...text(2), idempotencyKey: "turn_1/step_0/delta_1" },
      ],
    });
    expect(replay[0]).toEqual(first);
    expect(replay[1]?.index).toBe(1);
    expect(await db.sessionEvent.count({ where: { sessionId: session.id } })).toBe(2);
  });

  it("rejects an event that does not match the vocabulary and writes nothing", async () => {
    const session = await createTestSession(db);
    await expect(
      appendEvents({ db, sessionId: session.id, events: [text(1), { type: "message.appended", data: { delta: 5 } }] }),
    ).rejects.toThrow();
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
    const values = results.map((r) =>
      r.status === "fulfilled" ? r.value.map((e) => [e.sessionId === a.id ? "a" : "b", e.index, e.data]) : null,
    );
    expect(values[0]).toEqual([
      ["a", 0, { delta: "d1" }],
      ["a", 1, { delta: "d2" }],
    ]);
    expect(values[2]).toEqual([["b", 0, { delta: "d4" }]]);
    expect(values[3]).toEqual([["a", 2, { delta: "d5" }]]);
    // The repeated key returns the stored event; only the new one is appended.
    expect(values[4]).toEqual([
      ["b", 0, { delta: "d4" }],
      ["b", 1, { delta: "d6" }],
    ]);
  });

  it("writes none of a session's later appends in a batch after one of its own failed, and the other sessions' all", async () => {
    const [a, b] = [await createTestSession(db), await createTestSession(db)];
    // Same tick, one statement; Postgres refuses a NUL in a text parameter (the idempotency key;
    // event data is made storable first: storable-json.ts), so the batch fails and
    // each request is retried alone.
    const results = await Promise.allSettled([
      appendEvents({ db, sessionId: a.id, events: [{ ...text(1), idempotencyKey: "bad\u0000key" }] }),
      appendEvents({ db, sessionId: a.id, events: [text(2)] }),
      appendEvents({ db, sessionId: b.id, events: [text(3)] }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain("an earlier append of session");
    expect(await db.sessionEvent.count({ where: { sessionId: a.id } })).toBe(0);
    expect(await db.sessionEvent.count({ where: { sessionId: b.id } })).toBe(1);
  });

  it("writes no append of a session that was asked for while an earlier one of its own was still being written and failed", async () => {
    const [a, b] = [await createTestSession(db), await createTestSession(db)];
    const first = appendEvents({ db, sessionId: a.id, events: [{ ...text(1), idempotencyKey: "bad\u0000key" }] });
    first.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    // The first is on its way to Postgres (which refuses it); these wait for the next statement.
    const results = await Promise.allSettled([
      first,
      appendEvents({ db, sessionId: a.id, events: [text(2)] }),
      appendEvents({ db, sessionId: b.id, events: [text(3)] }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "fulfilled"]);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain("an earlier append of session");
    // Asked for once the failure was known: written.
    expect((await appendEvents({ db, sessionId: a.id, events: [text(4)] })).map((e) => e.index)).toEqual([0]);
  });

  it("answers not_found for an unknown session", async () => {
    await expect(appendEvents({ db, sessionId: "ses_nope", events: [text(1)] })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  // One notification per statement and session ("S:N"): the count tells how many statements wrote.
  async function statementsWriting(sessionId: string, appends: () => Promise<unknown>): Promise<number> {
    const listener = new pg.Client({ connectionString: inject("databaseUrl") });
    await listener.connect();
    try {
      let heard = 0;
      listener.on("notification", (message) => void (message.payload?.startsWith(`${sessionId}:`) && heard++));
      await listener.query(`LISTEN ${sessionEventsChannel.name}`);
      await appends();
      // A notification is delivered after its commit; a round trip on the listener follows it.
      await listener.query("SELECT 1");
      return heard;
    } finally {
      await listener.end();
    }
  }
  const turns = () =>
    new Promise((resolve) => setImmediate(resolve)).then(() => new Promise((resolve) => setImmediate(resolve)));

  it("lets an append that nothing waits for linger for the next, and writes both in one statement", async () => {
    const session = await createTestSession(db);
    const heard = await statementsWriting(session.id, async () => {
      const lingering = appendEvents({ db, sessionId: session.id, events: [text(1)], linger: true });
      // Past the moment a flush would have started: without the linger the first would be in flight.
      await turns();
      const next = appendEvents({ db, sessionId: session.id, events: [text(2)] });
      expect((await Promise.all([lingering, next])).flat().map((event) => event.index)).toEqual([0, 1]);
    });
    expect(heard).toBe(1);
    // Alone, it is written after its linger.
    const [alone] = await appendEvents({ db, sessionId: session.id, events: [text(3)], linger: true });
    expect(alone!.index).toBe(2);
  });

  it("writes a lingering append at once when someone waits for it (hurryAppends)", async () => {
    const session = await createTestSession(db);
    const heard = await statementsWriting(session.id, async () => {
      const lingering = appendEvents({ db, sessionId: session.id, events: [text(1)], linger: true });
      hurryAppends(poolOf(db));
      await turns();
      const next = appendEvents({ db, sessionId: session.id, events: [text(2)] });
      await Promise.all([lingering, next]);
    });
    expect(heard).toBe(2);
  });

  it("stamps the envelope: ISO time, turn id, session id", async () => {
    const session = await createTestSession(db);
    const [event] = await appendEvents({
      db,
      sessionId: session.id,
      events: [text(7)],
      clock: () => new Date("2026-11-29T12:00:00.000Z"),
    });
    expect(event).toEqual({
      type: "message.appended",
      index: 0,
      sessionId: session.id,
      turnId: "turn_1",
      at: "2026-11-29T12:00:00.000Z",
      data: { delta: "d7" },
    });
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
      const append = () =>
        appendStatement(
          client,
          [{ sessionId: session.id, events: [{ ...text(n), idempotencyKey: `k${n++}` }], at: new Date() }],
          sessionEventsChannel.name,
        );
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
        const { rows } = await client.query<{ seq_scan: string }>(
          `SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'session_events'`,
        );
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

describe("appendEvents of a step (fenced by the turn epoch)", () => {
  const step = (sessionId: string, name: string, epoch: number): StepRecord => ({
    turnId: "turn_1",
    name,
    sessionId,
    result: "{}",
    epoch,
  });

  it("writes a run's events only while it holds the turn; a write's result goes in regardless", async () => {
    const session = await createTestSession(db);
    await db.session.update({ where: { id: session.id }, data: { turnEpoch: 2 } });
    const current = step(session.id, "s1", 2);
    expect(await appendEvents({ db, sessionId: session.id, events: [text(1)], step: current })).toHaveLength(1);
    expect(current.stored).toBe(true);

    // A run superseded by a newer one (epoch 2 taken): nothing it appends with its step goes in.
    const stale = step(session.id, "s2", 1);
    expect(await appendEvents({ db, sessionId: session.id, events: [text(2)], step: stale })).toEqual([]);
    expect(stale.stored).toBe(false);
    // Except what it asks to keep: the result of a write that did happen.
    const result = step(session.id, "s3", 1);
    const kept = await appendEvents({ db, sessionId: session.id, events: [text(3)], step: result, unfenced: true });
    expect(kept.map((e) => e.data)).toEqual([{ delta: "d3" }]);
    expect(result.stored).toBe(false);

    const log = await readEvents({ db, sessionId: session.id, fromIndex: 0 });
    expect(log.map((e) => e.data)).toEqual([{ delta: "d1" }, { delta: "d3" }]);
  });
});

describe("appendEvents ending a turn (endsTurn)", () => {
  const turnId = "turn_end";
  const ending = [
    {
      type: "turn.completed" as const,
      turnId,
      data: { usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } },
      idempotencyKey: `${turnId}:finished`,
    },
    { type: "session.waiting" as const, turnId, data: {}, idempotencyKey: `${turnId}:waiting` },
  ];
  const runningSession = async () => {
    const session = await createTestSession(db);
    await db.session.update({
      where: { id: session.id },
      data: { status: "running", runningTurnId: turnId, runningInvocationId: "inv_1" },
    });
    return session;
  };
  const end = (sessionId: string) =>
    appendEvents({
      db,
      sessionId,
      events: ending,
      endsTurn: true,
      step: { turnId, name: `${turnId}:finish`, sessionId, result: "{}", epoch: 0 },
    });
  const state = async (sessionId: string) => {
    const session = await db.session.findUniqueOrThrow({ where: { id: sessionId } });
    return {
      status: session.status,
      runningTurnId: session.runningTurnId,
      runningInvocationId: session.runningInvocationId,
      events: (await readEvents({ db, sessionId, fromIndex: 0, limit: 100 })).map((e) => e.type),
      steps: await db.turnStep.count({ where: { sessionId } }),
    };
  };

  it("writes the events and the step's record and sets the session waiting, in one statement", async () => {
    const session = await runningSession();
    const stored = await end(session.id);
    expect(stored.map((e) => e.type)).toEqual(["turn.completed", "session.waiting"]);
    expect(await state(session.id)).toEqual({
      status: "waiting",
      runningTurnId: null,
      runningInvocationId: null,
      events: ["turn.completed", "session.waiting"],
      steps: 1,
    });
  });

  it("writes nothing while a coalesced send waits, a call waits for approval, or another turn owns the session", async () => {
    const waiting = await runningSession();
    await db.pendingDelivery.create({ data: { sessionId: waiting.id, deliveryId: "dlv_1", text: "more" } });
    const approving = await runningSession();
    await db.approval.create({
      data: {
        sessionId: approving.id,
        turnId,
        callId: "call_1",
        toolName: "t",
        args: {},
        requestedBy: {},
        awakeableId: "a",
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const taken = await runningSession();
    await db.session.update({ where: { id: taken.id }, data: { runningTurnId: "turn_next" } });
    for (const session of [waiting, approving, taken]) {
      expect(await end(session.id)).toEqual([]);
      expect(await state(session.id)).toMatchObject({ status: "running", events: [], steps: 0 });
    }
  });

  it("writes nothing for a run that no longer holds the session's turn epoch", async () => {
    const session = await runningSession();
    await db.session.update({ where: { id: session.id }, data: { turnEpoch: 1 } });
    expect(await end(session.id)).toEqual([]);
    expect(await state(session.id)).toMatchObject({ status: "running", events: [], steps: 0 });
  });

  it("writes nothing again for a turn whose end is already in the log", async () => {
    const session = await runningSession();
    await appendEvents({ db, sessionId: session.id, events: ending });
    expect(await end(session.id)).toEqual([]);
    expect(await state(session.id)).toMatchObject({
      status: "running",
      events: ["turn.completed", "session.waiting"],
      steps: 0,
    });
  });

  it.each([
    // A coalesced send as follow-up-session.ts makes it: the session row, then the delivery.
    [
      "a client's send",
      async (sender: pg.Client, sessionId: string) => {
        await sender.query(`UPDATE sessions SET "continuationTokenHash" = 'next' WHERE id = $1`, [sessionId]);
        await sender.query(
          `INSERT INTO pending_deliveries ("sessionId", "deliveryId", text) VALUES ($1, 'dlv_2', 'more')`,
          [sessionId],
        );
      },
    ],
    // A reminder firing into the busy session.
    [
      "a reminder",
      async (sender: pg.Client, sessionId: string) => {
        expect(
          await deliverCoalesced(sender as pg.PoolClient, { sessionId, text: "remember", deliveryId: "dlv_3" }),
        ).toEqual({ kind: "queued" });
      },
    ],
  ] as const)("does not miss %s committing while the statement waits for the session's lock", async (_, send) => {
    const session = await runningSession();
    const sender = new pg.Client({ connectionString: inject("databaseUrl") });
    await sender.connect();
    try {
      await sender.query("BEGIN");
      await send(sender, session.id);
      const ended = end(session.id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sender.query("COMMIT");
      expect(await ended).toEqual([]);
      expect(await state(session.id)).toMatchObject({ status: "running", runningTurnId: turnId, events: [], steps: 0 });
    } finally {
      await sender.end();
    }
  });
});
