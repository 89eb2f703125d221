// The Postgres step journal: a finished step is never run again, by a replay of the same turn in
// this process or in another; what a step returns is the same value on its first run and on a
// replay; a step that threw left nothing behind and runs again.
import crypto from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import pg from "pg";
import { createDb, poolOf } from "@/server/db";
import { createTestSession } from "@/testing/fixtures";
import { appendEvents } from "@/server/events/append-events";
import { requestTurnCancel } from "./cancellation";
import { finishTurn } from "./finish-turn";
import { zeroUsage } from "./model-step";
import { eagerEpoch, SupersededRun, turnJournal } from "./step-journal";
import { readEagerTurnStart } from "./turn-setup";
import { livenessLockSpace } from "@/server/worker/live-workers";

const stepJournal = (...args: Parameters<typeof turnJournal>) => turnJournal(...args).step;

const db = createDb(inject("databaseUrl"));

afterAll(async () => {
  await db.$disconnect();
});

async function newTurn() {
  const session = await createTestSession(db);
  return { sessionId: session.id, turnId: `turn_${crypto.randomUUID().slice(0, 8)}` };
}

describe("turnJournal", () => {
  it("runs each step once: a replay of the turn gets the recorded outcomes back", async () => {
    const turn = await newTurn();
    const runs: string[] = [];
    const action = (name: string, value: unknown) => async () => {
      runs.push(name);
      return value;
    };
    const first = stepJournal(db, turn);
    expect(await first("prepare", action("prepare", { system: "s", at: new Date("2026-01-01T00:00:00Z") }))).toEqual({
      system: "s",
      at: "2026-01-01T00:00:00.000Z",
    });
    expect(await first("tool:1", action("tool:1", undefined))).toBeUndefined();
    expect(await first("model:0", action("model:0", [1, null, "x"]))).toEqual([1, null, "x"]);
    // The same name again in the same run is a replay too.
    expect(await first("model:0", action("model:0 again", "other"))).toEqual([1, null, "x"]);

    const replay = stepJournal(db, turn);
    expect(await replay("prepare", action("prepare again", "changed"))).toEqual({
      system: "s",
      at: "2026-01-01T00:00:00.000Z",
    });
    expect(await replay("tool:1", action("tool:1 again", "changed"))).toBeUndefined();
    expect(await replay("model:0", action("model:0 again", "changed"))).toEqual([1, null, "x"]);
    expect(await replay("model:1", action("model:1", "new"))).toBe("new");
    expect(runs).toEqual(["prepare", "tool:1", "model:0", "model:1"]);
  });

  it("records nothing for a step that threw: the next attempt runs it", async () => {
    const turn = await newTurn();
    const failing = stepJournal(db, turn);
    await expect(failing("tool:1", async () => Promise.reject(new Error("worker lost the sandbox")))).rejects.toThrow(
      "worker lost the sandbox",
    );
    const retry = stepJournal(db, turn);
    expect(await retry("tool:1", async () => "ran")).toBe("ran");
  });

  it("tells a step run again what an earlier run of the turn appended: attempts, tool results, nudges", async () => {
    const turn = await newTurn();
    const { turnId } = turn;
    await appendEvents({
      db,
      sessionId: turn.sessionId,
      events: [
        { type: "step.started", turnId, data: { step: 0 }, idempotencyKey: `${turnId}:s0.1:started` },
        { type: "step.started", turnId, data: { step: 0, attempt: 2 }, idempotencyKey: `${turnId}:s0.2:started` },
        {
          type: "step.started",
          turnId,
          data: { step: 0, parentCallId: "c9" },
          idempotencyKey: `${turnId}:c9:s0.1:started`,
        },
        {
          type: "action.result",
          turnId,
          data: { callId: "c1", toolName: "lookup", output: { ok: 1 }, isError: false },
          idempotencyKey: `${turnId}:c1:result`,
        },
        {
          type: "nudge.delivered",
          turnId,
          data: { deliveryId: "d1", text: "first" },
          idempotencyKey: `${turnId}:nudge:1:d1`,
        },
        {
          type: "nudge.delivered",
          turnId,
          data: { deliveryId: "d2", text: "second" },
          idempotencyKey: `${turnId}:nudge:1:d2`,
        },
        {
          type: "nudge.delivered",
          turnId,
          data: { deliveryId: "d3", text: "later" },
          idempotencyKey: `${turnId}:nudge:2:d3`,
        },
      ],
    });
    const { earlier } = turnJournal(db, turn);
    expect(await earlier.startedAttempts(`${turnId}:s0`)).toBe(2);
    expect(await earlier.startedAttempts(`${turnId}:c9:s0`)).toBe(1);
    expect(await earlier.startedAttempts(`${turnId}:s1`)).toBe(0);
    expect(await earlier.recorded(`${turnId}:c1:result`)).toMatchObject({ output: { ok: 1 }, isError: false });
    expect(await earlier.recorded(`${turnId}:c2:result`)).toBeUndefined();
    expect(await earlier.nudges(`${turnId}:nudge:1:`)).toEqual(["first", "second"]);
    // A fresh turn of the same session sees none of it.
    expect(await turnJournal(db, { ...turn, turnId: `${turnId}x` }).earlier.startedAttempts(`${turnId}x:s0`)).toBe(0);
  });

  it("commits a sealed step's record with its last events, in one statement", async () => {
    const turn = await newTurn();
    const { sessionId, turnId } = turn;
    const event = {
      type: "action.result" as const,
      turnId,
      data: { callId: "c1", toolName: "t", output: "done", isError: false },
      idempotencyKey: `${turnId}:c1:result`,
    };
    const value = await turnJournal(db, turn).step("tool:c1", async (seal) => {
      const outcome = { output: "done", isError: false };
      await appendEvents({ db, sessionId, events: [event], step: seal(outcome) });
      return outcome;
    });
    expect(value).toEqual({ output: "done", isError: false });
    expect(await db.turnStep.findMany({ where: { turnId }, select: { name: true, result: true } })).toEqual([
      { name: "tool:c1", result: '{"output":"done","isError":false}' },
    ]);
    // A step whose append failed left neither its events nor its record.
    const failing = turnJournal(db, { sessionId: "no-such-session", turnId });
    await expect(
      failing.step("tool:c2", async (seal) => {
        await appendEvents({
          db,
          sessionId: "no-such-session",
          events: [{ ...event, idempotencyKey: `${turnId}:c2:result` }],
          step: seal("x"),
        });
        return "x";
      }),
    ).rejects.toThrow();
    expect(await db.turnStep.count({ where: { turnId, name: "tool:c2" } })).toBe(0);
  });

  it("fences off a run that a newer run of the turn took over: it records nothing more", async () => {
    const turn = await newTurn();
    const old = turnJournal(db, turn);
    await old.step("prepare", async () => "old");
    // Restate retried the invocation while the old run was still going.
    const current = turnJournal(db, turn);
    expect(await current.step("prepare", async () => "again")).toBe("old");
    await expect(old.step("tool:c1", async () => "old result")).rejects.toBeInstanceOf(SupersededRun);
    await expect(
      old.step("model:1", async (seal) => {
        await appendEvents({
          db,
          sessionId: turn.sessionId,
          events: [{ type: "session.waiting", turnId: turn.turnId, data: {} }],
          step: seal("old outcome"),
        });
        return "old outcome";
      }),
    ).rejects.toBeInstanceOf(SupersededRun);
    expect(await current.step("tool:c1", async () => "current result")).toBe("current result");
    expect(await current.step("model:1", async () => "current outcome")).toBe("current outcome");
    const rows = await db.turnStep.findMany({
      where: { turnId: turn.turnId },
      orderBy: { name: "asc" },
      select: { name: true, result: true },
    });
    expect(rows).toEqual([
      { name: "model:1", result: '"current outcome"' },
      { name: "prepare", result: '"old"' },
      { name: "tool:c1", result: '"current result"' },
    ]);
  });

  it("a step another run recorded after this run read the journal is not recorded twice", async () => {
    const turn = await newTurn();
    const current = turnJournal(db, turn);
    await current.stopRequested(); // reads the journal: nothing yet
    await db.turnStep.create({
      data: { turnId: turn.turnId, name: "tool:c1", sessionId: turn.sessionId, result: '"theirs"' },
    });
    await expect(current.step("tool:c1", async () => "mine")).rejects.toBeInstanceOf(SupersededRun);
    expect(await turnJournal(db, turn).step("tool:c1", async () => "again")).toBe("theirs");
  });

  it("tells a run that starts after a stop was asked that the turn is to stop", async () => {
    const turn = await newTurn();
    expect(await turnJournal(db, turn).stopRequested()).toBe(false);
    await requestTurnCancel(db, turn.sessionId, turn.turnId);
    expect(await turnJournal(db, turn).stopRequested()).toBe(true);
    expect(
      await turnJournal(db, turn, [turn.turnId], { eagerStart: readEagerTurnStart(db, turn) }).stopRequested(),
    ).toBe(true);
    expect(await turnJournal(db, { ...turn, turnId: `${turn.turnId}x` }).stopRequested()).toBe(false);
  });

  it("drops the records of turns from earlier invocations of the session, never of this one", async () => {
    const a = await newTurn();
    const b = { sessionId: a.sessionId, turnId: `${a.turnId}b` };
    const c = { sessionId: a.sessionId, turnId: `${a.turnId}c` };
    const names = async () =>
      (
        await db.turnStep.findMany({
          where: { sessionId: a.sessionId },
          orderBy: { turnId: "asc" },
          select: { turnId: true },
        })
      ).map((row) => row.turnId);
    await turnJournal(db, a).step("finish", async () => "a");
    // A new invocation runs b: a's invocation has ended.
    await turnJournal(db, b, [b.turnId]).step("finish", async () => "b");
    expect(await names()).toEqual([b.turnId]);
    // c drained from b runs in b's invocation: b's records stay, for a replay of it.
    await turnJournal(db, c, [b.turnId, c.turnId]).step("finish", async () => "c");
    expect(await names()).toEqual([b.turnId, c.turnId]);
  });

  it("lets an eager run record under the epoch its session's start gave it, taking nothing, until another run takes a later one", async () => {
    const turn = await newTurn();
    const epoch = async () =>
      (await db.session.findUniqueOrThrow({ where: { id: turn.sessionId }, select: { turnEpoch: true } })).turnEpoch;
    // Named by nobody (no live worker when the session started): not the eager run's to run.
    expect(await turnJournal(db, turn, [turn.turnId], { eagerStart: readEagerTurnStart(db, turn) }).isCurrent()).toBe(
      false,
    );
    // As record-session-start.ts leaves a session whose first turn it gave a live worker.
    await db.session.update({ where: { id: turn.sessionId }, data: { turnEpoch: eagerEpoch } });
    const eager = turnJournal(db, turn, [turn.turnId], { eagerStart: readEagerTurnStart(db, turn) });
    expect(await eager.isCurrent()).toBe(true);
    expect(await eager.step("model:0", async () => "first")).toBe("first");
    expect(await epoch()).toBe(eagerEpoch);
    // The invocation's run supersedes the eager one, as any newer run does, and replays its record.
    const invocation = turnJournal(db, turn);
    expect(await invocation.step("model:0", async () => "again")).toBe("first");
    expect(await epoch()).toBe(eagerEpoch + 1);
    await expect(eager.step("model:1", async () => "late")).rejects.toThrow(SupersededRun);
    // An eager run that begins after another run took the turn is not current and records nothing.
    const late = turnJournal(db, turn, [turn.turnId], { eagerStart: readEagerTurnStart(db, turn) });
    expect(await late.isCurrent()).toBe(false);
    await expect(late.step("model:1", async () => "late")).rejects.toThrow(SupersededRun);
    expect(await db.turnStep.count({ where: { turnId: turn.turnId } })).toBe(1);
  });

  it("keeps turns apart and goes with its session", async () => {
    const a = await newTurn();
    const b = { sessionId: a.sessionId, turnId: `${a.turnId}b` };
    await stepJournal(db, a)("finish", async () => "a");
    expect(await stepJournal(db, b)("finish", async () => "b")).toBe("b");
    await db.session.delete({ where: { id: a.sessionId } });
    expect(await db.turnStep.count({ where: { sessionId: a.sessionId } })).toBe(0);
  });

  it("records the finish of a turn whose end is in the log but not in the journal (the one-statement end declines)", async () => {
    const turn = await newTurn();
    await db.session.update({ where: { id: turn.sessionId }, data: { status: "running", runningTurnId: turn.turnId } });
    // An earlier run wrote the end; its record did not make it (say, that run was superseded).
    await appendEvents({
      db,
      sessionId: turn.sessionId,
      events: [
        {
          type: "turn.completed",
          turnId: turn.turnId,
          data: { usage: zeroUsage },
          idempotencyKey: `${turn.turnId}:finished`,
        },
      ],
    });
    const step = stepJournal(db, turn);
    const finish = () =>
      step(`${turn.turnId}:finish`, (seal) =>
        finishTurn({ db, ...turn, mode: "chat", end: { kind: "completed", text: "done", usage: zeroUsage }, seal }),
      );
    expect(await finish()).toBeUndefined();
    expect(await db.turnStep.count({ where: { turnId: turn.turnId, name: `${turn.turnId}:finish` } })).toBe(1);
    expect(await db.sessionEvent.count({ where: { sessionId: turn.sessionId } })).toBe(1);
  });

  it("checks a deferred record with the next step: a record that was not stored stops the run there", async () => {
    const turn = await newTurn();
    const step = stepJournal(db, turn);
    // The step returns while its append is still being written; that append then finds the run
    // superseded and does not store the record.
    let finishWrite: () => void = () => undefined;
    const value = await step("model:1", async (seal) => {
      const record = seal("answer")!;
      record.written = new Promise<void>((resolve) => (finishWrite = () => ((record.stored = false), resolve())));
      return "answer";
    });
    expect(value).toBe("answer");
    const next = step("finish", async () => "done");
    finishWrite();
    await expect(next).rejects.toBeInstanceOf(SupersededRun);
    expect(await db.turnStep.count({ where: { turnId: turn.turnId } })).toBe(0);
  });

  it("does not write a deferred record again once its append stored it", async () => {
    const turn = await newTurn();
    const step = stepJournal(db, turn);
    await step("model:1", async (seal) => {
      const record = seal("answer")!;
      record.written = Promise.resolve().then(() => void (record.stored = true));
      return "answer";
    });
    expect(await step("finish", async () => "done")).toBe("done");
    // Only finish was written by the journal itself; model:1's record was its append's to write.
    expect((await db.turnStep.findMany({ where: { turnId: turn.turnId } })).map((row) => row.name)).toEqual(["finish"]);
  });

  it("a superseded run's finish writes nothing, in one statement or in the transaction", async () => {
    for (const mode of ["chat", "task"] as const) {
      const session = await createTestSession(db, { mode });
      const turn = { sessionId: session.id, turnId: `turn_${crypto.randomUUID().slice(0, 8)}` };
      await db.session.update({
        where: { id: turn.sessionId },
        data: { status: "running", runningTurnId: turn.turnId },
      });
      const step = stepJournal(db, turn);
      await step("prepare", async () => "ready");
      // A newer run of the turn takes the epoch.
      await db.session.update({ where: { id: turn.sessionId }, data: { turnEpoch: { increment: 1 } } });
      const finish = step(`${turn.turnId}:finish`, (seal) =>
        finishTurn({ db, ...turn, mode, end: { kind: "completed", text: "done", usage: zeroUsage }, seal }),
      );
      await expect(finish).rejects.toBeInstanceOf(SupersededRun);
      expect(await db.sessionEvent.count({ where: { sessionId: turn.sessionId } })).toBe(0);
      expect((await db.session.findUniqueOrThrow({ where: { id: turn.sessionId } })).status).toBe("running");
    }
  });

  it("starts no step after a deferred record's append failed", async () => {
    const turn = await newTurn();
    const step = stepJournal(db, turn);
    await step("model:1", async (seal) => {
      const record = seal("answer")!;
      record.written = Promise.reject(new Error("the append failed"));
      record.written.catch(() => undefined);
      return "answer";
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    let ran = false;
    await expect(step("tool:1", async () => (ran = true))).rejects.toThrow("the append failed");
    expect(ran).toBe(false);
  });

  it("ends a turn the long way only after the appends steps did not wait for", async () => {
    const waits: string[] = [];
    for (const mode of ["chat", "task"] as const) {
      const session = await createTestSession(db, { mode });
      const turnId = `turn_${crypto.randomUUID().slice(0, 8)}`;
      await db.session.update({ where: { id: session.id }, data: { status: "running", runningTurnId: turnId } });
      await finishTurn({
        db,
        sessionId: session.id,
        turnId,
        mode,
        end: { kind: "completed", text: "done", usage: zeroUsage },
        settled: async () => void waits.push(mode),
      });
    }
    // A chat turn's one-statement end queues behind them in group commit instead.
    expect(waits).toEqual(["task"]);
  });

  describe("claimWrite: a write runs at most once across runs of its turn", () => {
    const keys = { claim: "t:c1:claim", result: "t:c1:result" };
    const never = new AbortController().signal;
    const resultEvent = (turn: { sessionId: string; turnId: string }) => ({
      type: "action.result" as const,
      turnId: turn.turnId,
      data: { callId: "c1", toolName: "bump", output: "bumped", isError: false },
      idempotencyKey: keys.result,
    });

    it("the first run claims it; a later run learns an earlier one started it, and waits out a claim naming no worker", async () => {
      const turn = await newTurn();
      // Claimed with no liveness key (between two of its worker's connections): that worker may
      // live, so the next run waits the whole time it is given before it calls the write cut off.
      expect(await turnJournal(db, turn).earlier.claimWrite(keys, 60_000, never)).toEqual({ earlier: false });
      const startedAt = Date.now();
      expect(await turnJournal(db, turn).earlier.claimWrite(keys, 1_500, never)).toEqual({
        earlier: true,
        result: undefined,
      });
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_400);
    });

    it("an older run still going cannot claim a write once a newer run took the turn", async () => {
      const turn = await newTurn();
      const old = turnJournal(db, turn);
      await old.stopRequested(); // reads the journal, taking an epoch
      await turnJournal(db, turn).stopRequested(); // a newer run takes the next
      await expect(old.earlier.claimWrite(keys, 1_000, never)).rejects.toBeInstanceOf(SupersededRun);
    });

    it("waits for an older run's claim that committed just after this run's read, rather than giving up", async () => {
      const turn = await newTurn();
      const run = turnJournal(db, turn);
      await run.stopRequested(); // reads the journal, taking the epoch
      // The older run's claim, committed after that read: its insert held the session row while
      // this run took the epoch, and the read saw the steps from before it.
      await poolOf(db).query(
        `INSERT INTO turn_steps ("turnId", name, "sessionId", result, at) VALUES ($1, $2, $3, NULL, now())`,
        [turn.turnId, keys.claim, turn.sessionId],
      );
      await appendEvents({ db, sessionId: turn.sessionId, events: [resultEvent(turn)] });
      expect(await run.earlier.claimWrite(keys, 60_000, never)).toEqual({
        earlier: true,
        result: resultEvent(turn).data,
      });
    });

    it("waits for the result of a run whose worker lives, and no longer once that worker is gone", async () => {
      const worker = new pg.Client({ connectionString: inject("databaseUrl") });
      await worker.connect();
      const key = crypto.randomInt(1, 2 ** 31 - 1);
      await worker.query("SELECT pg_advisory_lock($1, $2)", [livenessLockSpace, key]);
      try {
        const turn = await newTurn();
        await turnJournal(db, turn, [turn.turnId], { workerKey: () => key }).earlier.claimWrite(keys, 60_000, never);
        // The old run's write ends 300 ms into the new run's wait, and its result is the new run's.
        const waiting = turnJournal(db, turn).earlier.claimWrite(keys, 60_000, never);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await appendEvents({ db, sessionId: turn.sessionId, events: [resultEvent(turn)] });
        expect(await waiting).toEqual({ earlier: true, result: resultEvent(turn).data });

        const other = await newTurn();
        await turnJournal(db, other, [other.turnId], { workerKey: () => key }).earlier.claimWrite(keys, 60_000, never);
        const startedAt = Date.now();
        const abandoned = turnJournal(db, other).earlier.claimWrite(keys, 60_000, never);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await worker.end(); // the worker died: its liveness lock goes with its connection
        expect(await abandoned).toEqual({ earlier: true, result: undefined });
        expect(Date.now() - startedAt).toBeLessThan(10_000);
      } finally {
        await worker.end().catch(() => undefined);
      }
    });
  });
});
