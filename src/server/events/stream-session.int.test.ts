import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sessionEventSchema } from "@/agents/sdk/events";
import { streamControlLineSchema } from "@/agents/sdk/stream-lines";
import { createDb } from "@/server/db";
import { parseNdjson } from "@/server/http/ndjson";
import { createTestSession } from "@/testing/fixtures";
import { appendEvents } from "./append-events";
import { createEventHub, type EventHub } from "./event-hub";
import { readEvents } from "./read-events";
import { openSessionStream, streamSession } from "./stream-session";
import { AppError } from "@/server/errors";
import { ownedOrThrow } from "@/server/sessions/get-owned-session";

const db = createDb(inject("databaseUrl"));
let hubs: EventHub[];

beforeAll(async () => {
  // Two hubs stand for two web processes, each with its own LISTEN connection.
  hubs = [
    await createEventHub({ databaseUrl: inject("databaseUrl") }),
    await createEventHub({ databaseUrl: inject("databaseUrl") }),
  ];
});
afterAll(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  await db.$disconnect();
});

const delta = (n: number) => ({ type: "message.appended" as const, data: { delta: `d${n}` } });

/** Reads lines until `count` have arrived or the stream ends; then stops reading. */
async function take(stream: ReadableStream<Uint8Array>, count: number): Promise<any[]> {
  const lines: any[] = [];
  for await (const line of parseNdjson(stream)) {
    lines.push(line);
    if (lines.length >= count) break;
  }
  return lines;
}

describe("streamSession", () => {
  it("replays from 0 exactly as the log reads, then follows live appends", async () => {
    const session = await createTestSession(db);
    await appendEvents({ db, sessionId: session.id, events: [delta(0), delta(1), delta(2)] });
    const stream = streamSession({ db, hub: hubs[0]!, sessionId: session.id, startIndex: 0, heartbeatMs: 0 });
    const reading = take(stream, 5);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await appendEvents({ db, sessionId: session.id, events: [delta(3), delta(4)] });
    const lines = await reading;
    for (const line of lines) sessionEventSchema.parse(line);
    expect(lines).toEqual(await readEvents({ db, sessionId: session.id, fromIndex: 0 }));
  });

  it("resumes at startIndex with every later event once, none earlier", async () => {
    const session = await createTestSession(db);
    await appendEvents({ db, sessionId: session.id, events: Array.from({ length: 10 }, (_, i) => delta(i)) });
    const stream = streamSession({ db, hub: hubs[0]!, sessionId: session.id, startIndex: 7, heartbeatMs: 0 });
    const reading = take(stream, 5);
    await appendEvents({ db, sessionId: session.id, events: [delta(10), delta(11)] });
    expect((await reading).map((e) => e.index)).toEqual([7, 8, 9, 10, 11]);
  });

  it("serves the same session live from two processes' hubs", async () => {
    const session = await createTestSession(db);
    const streams = hubs.map((hub) =>
      take(streamSession({ db, hub, sessionId: session.id, startIndex: 0, heartbeatMs: 0 }), 3),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let i = 0; i < 3; i++) await appendEvents({ db, sessionId: session.id, events: [delta(i)] });
    const [a, b] = await Promise.all(streams);
    expect(a!.map((e) => e.index)).toEqual([0, 1, 2]);
    expect(b).toEqual(a);
  });

  it("sends a heartbeat line without an index after silence", async () => {
    const session = await createTestSession(db);
    const [line] = await take(
      streamSession({ db, hub: hubs[0]!, sessionId: session.id, startIndex: 0, heartbeatMs: 100 }),
      1,
    );
    expect(streamControlLineSchema.parse(line).type).toBe("heartbeat");
    expect(line.index).toBeUndefined();
    expect(new Date(line.at).toISOString()).toBe(line.at);
  });

  it("ends a task session's stream after its final event", async () => {
    const session = await createTestSession(db, { mode: "task" });
    await appendEvents({
      db,
      sessionId: session.id,
      events: [delta(0), { type: "session.completed", data: {} }, delta(2)],
    });
    const stream = streamSession({
      db,
      hub: hubs[0]!,
      sessionId: session.id,
      startIndex: 0,
      heartbeatMs: 0,
      endAfter: (e) => e.type === "session.completed",
    });
    expect((await take(stream, 10)).map((e) => e.type)).toEqual(["message.appended", "session.completed"]);
  });

  it("waits for a reader that is behind, and ends a stalled one with an error line naming the index to resume from", async () => {
    const session = await createTestSession(db);
    await appendEvents({ db, sessionId: session.id, events: Array.from({ length: 50 }, (_, i) => delta(i)) });
    const stream = streamSession({
      db,
      hub: hubs[0]!,
      sessionId: session.id,
      startIndex: 0,
      heartbeatMs: 0,
      maxBufferedBytes: 1024,
      slowReaderMs: 200,
    });
    const reader = stream.getReader();
    const first = await reader.read();
    // Stall: read nothing more for longer than slowReaderMs while appends keep coming. The
    // first batch fills the buffer; the second has to wait for the reader, which never comes.
    await appendEvents({ db, sessionId: session.id, events: Array.from({ length: 50 }, (_, i) => delta(50 + i)) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await appendEvents({ db, sessionId: session.id, events: Array.from({ length: 50 }, (_, i) => delta(100 + i)) });
    // Well past slowReaderMs, with room for a loaded CI machine.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const chunks = [first.value!];
    for (let part = await reader.read(); !part.done; part = await reader.read()) chunks.push(part.value);
    const lines = Buffer.concat(chunks)
      .toString()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const last = streamControlLineSchema.parse(lines.at(-1));
    if (last.type !== "error") throw new Error(`expected an error line, got ${last.type}`);
    expect(last).toMatchObject({ type: "error", error: "slow_reader" });
    expect(last.nextIndex).toBe(lines.length - 1);
    expect(last.nextIndex).toBeLessThan(150);
    expect(lines.slice(0, -1).map((e) => e.index)).toEqual(Array.from({ length: lines.length - 1 }, (_, i) => i));
  });

  it("replays a log far larger than its buffer to a reader that keeps up, without cutting it off", async () => {
    const session = await createTestSession(db);
    await appendEvents({ db, sessionId: session.id, events: Array.from({ length: 3000 }, (_, i) => delta(i)) });
    const stream = streamSession({
      db,
      hub: hubs[0]!,
      sessionId: session.id,
      startIndex: 0,
      heartbeatMs: 0,
      maxBufferedBytes: 4096,
      slowReaderMs: 5_000,
    });
    const lines = await take(stream, 3000);
    expect(lines.map((e) => e.index)).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  });
});

describe("openSessionStream", () => {
  const owner = { kind: "local" as const, id: "test" };
  /** A hub that counts its live subscriptions, around a real one. */
  function countingHub(hub: EventHub) {
    let live = 0;
    return {
      get live() {
        return live;
      },
      hub: {
        ...hub,
        subscribe: (sessionId: string, onEvents: Parameters<EventHub["subscribe"]>[1]) => {
          live++;
          const stop = hub.subscribe(sessionId, onEvents);
          return () => (live--, stop());
        },
      } satisfies EventHub,
    };
  }

  it("checks the session and replays its first page in one read, then follows live appends", async () => {
    const session = await createTestSession(db);
    await appendEvents({ db, sessionId: session.id, events: [delta(0), delta(1)] });
    const counting = countingHub(hubs[0]!);
    const stream = await openSessionStream({
      db,
      hub: counting.hub,
      agentId: session.agentId,
      sessionId: session.id,
      startIndex: 1,
      heartbeatMs: 0,
      check: (found) => ownedOrThrow(found, owner, session.id),
    });
    expect(counting.live).toBe(1); // the stream's own; the one held during the read is gone
    const reading = take(stream, 3);
    await appendEvents({ db, sessionId: session.id, events: [delta(2), delta(3)] });
    const lines = await reading;
    expect(lines).toEqual(await readEvents({ db, sessionId: session.id, fromIndex: 1 }));
  });

  it("answers 404 for a session of another agent or none, 403 for another principal's, and keeps no subscription", async () => {
    const session = await createTestSession(db);
    const other = await createTestSession(db);
    const counting = countingHub(hubs[0]!);
    const open = (agentId: string, sessionId: string, principal: { kind: "local" | "app"; id: string }) =>
      openSessionStream({
        db,
        hub: counting.hub,
        agentId,
        sessionId,
        startIndex: 0,
        heartbeatMs: 0,
        check: (found) => ownedOrThrow(found, principal, sessionId),
      });
    await expect(open(other.agentId, session.id, owner)).rejects.toMatchObject({ code: "not_found" });
    await expect(open(session.agentId, "ses_nothing", owner)).rejects.toMatchObject({ code: "not_found" });
    await expect(open(session.agentId, session.id, { kind: "app", id: "token:stranger" })).rejects.toThrow(AppError);
    await expect(open(session.agentId, session.id, { kind: "app", id: "token:stranger" })).rejects.toMatchObject({
      code: "forbidden",
    });
    expect(counting.live).toBe(0);
  });

  it("ends a task session's stream after its final event, from the first page", async () => {
    const session = await createTestSession(db, { mode: "task" });
    await appendEvents({ db, sessionId: session.id, events: [delta(0), { type: "session.completed", data: {} }] });
    const stream = await openSessionStream({
      db,
      hub: hubs[0]!,
      agentId: session.agentId,
      sessionId: session.id,
      startIndex: 0,
      heartbeatMs: 0,
      check: (found) => ownedOrThrow(found, owner, session.id),
      endAfter: (found) => (found.mode === "task" ? (event) => event.type === "session.completed" : undefined),
    });
    expect((await take(stream, 10)).map((e) => e.type)).toEqual(["message.appended", "session.completed"]);
  });
});

describe("streamSession with a first page read already", () => {
  it("reads on from the log when a notice was heard during that read, and waits otherwise", async () => {
    const session = await createTestSession(db);
    await appendEvents({ db, sessionId: session.id, events: [delta(0), delta(1)] });
    // The first page stopped at index 0; index 1 was appended (and announced) meanwhile.
    const [firstLine] = (await readEvents({ db, sessionId: session.id, fromIndex: 0 }))
      .slice(0, 1)
      .map((event) => ({ index: event.index, type: event.type, line: `${JSON.stringify(event)}\n` }));
    const heard = streamSession({
      db,
      hub: hubs[0]!,
      sessionId: session.id,
      startIndex: 0,
      heartbeatMs: 0,
      firstPage: { lines: [firstLine!], heardMeanwhile: true },
    });
    expect((await take(heard, 2)).map((e) => e.index)).toEqual([0, 1]);

    const unheard = streamSession({
      db,
      hub: hubs[0]!,
      sessionId: session.id,
      startIndex: 0,
      heartbeatMs: 0,
      firstPage: { lines: [firstLine!], heardMeanwhile: false },
    });
    const seen: number[] = [];
    const reading = (async () => {
      for await (const line of parseNdjson(unheard)) if (seen.push((line as { index: number }).index) >= 3) break;
    })();
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Nothing read on its own: the next notice brings index 1 and the new one.
    expect(seen).toEqual([0]);
    await appendEvents({ db, sessionId: session.id, events: [delta(2)] });
    await reading;
    expect(seen).toEqual([0, 1, 2]);
  });
});
