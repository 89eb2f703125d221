import { describe, expect, it } from "vitest";
import type { NewEvent } from "./append-events";
import { joinDeltas } from "@/server/turns/model-step";
import { pipelinedAppender } from "./pipelined-appender";

const delta = (n: number): NewEvent => ({ type: "message.appended", data: { delta: String(n) } });

describe("pipelinedAppender", () => {
  it("sends the first event at once and batches the ones pushed while it is in flight, in order", async () => {
    const batches: string[][] = [];
    let release: () => void = () => undefined;
    const out = pipelinedAppender(async (events) => {
      batches.push(events.map((e) => (e.data as { delta: string }).delta));
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    out.push(delta(0));
    await Promise.resolve();
    for (let i = 1; i <= 4; i++) out.push(delta(i));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(batches).toEqual([["0"]]);
    release();
    await out.flush();
    expect(batches).toEqual([["0"], ["1", "2", "3", "4"]]);
  });

  it("with lingerMs, holds the first append for what follows it, until the time is up or flush", async () => {
    const batches: string[][] = [];
    const out = pipelinedAppender(
      async (events) => void batches.push(events.map((e) => (e.data as { delta: string }).delta)),
      { lingerMs: 30 },
    );
    out.push(delta(0));
    await new Promise((resolve) => setTimeout(resolve, 5));
    out.push(delta(1));
    expect(batches).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(batches).toEqual([["0", "1"]]);
    // Later appends do not linger.
    out.push(delta(2));
    await out.flush();
    expect(batches).toEqual([["0", "1"], ["2"]]);

    const quick = pipelinedAppender(
      async (events) => void batches.push(events.map((e) => (e.data as { delta: string }).delta)),
      { lingerMs: 60_000 },
    );
    quick.push(delta(3), delta(4));
    await quick.flush();
    expect(batches.at(-1)).toEqual(["3", "4"]);
  });

  it("reports a failed append from flush and refuses further pushes", async () => {
    const out = pipelinedAppender(async () => {
      throw new Error("database gone");
    });
    out.push(delta(0));
    await expect(out.flush()).rejects.toThrow("database gone");
    expect(() => out.push(delta(1))).toThrow("database gone");
  });

  it("dispatched ends the linger and resolves once everything pushed is handed over, before it is stored", async () => {
    const handed: string[][] = [];
    let store: () => void = () => undefined;
    const out = pipelinedAppender(
      (events) => {
        handed.push(events.map((e) => (e.data as { delta: string }).delta));
        return new Promise<void>((resolve) => (store = resolve));
      },
      { lingerMs: 10_000 },
    );
    out.push(delta(0), delta(1));
    let isStored = false;
    const flushed = out.flush().then(() => (isStored = true));
    await out.dispatched();
    expect(handed).toEqual([["0", "1"]]);
    expect(isStored).toBe(false);
    // What is pushed later is handed over after the append in flight is stored.
    out.push(delta(2));
    const later = out.dispatched();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(handed).toEqual([["0", "1"]]);
    store();
    await flushed;
    await later;
    expect(handed).toEqual([["0", "1"], ["2"]]);
    store();
    await out.flush();
  });

  it("with join, makes one event of what waits for the same append, and only of that", async () => {
    const batches: NewEvent[][] = [];
    let release: () => void = () => undefined;
    const out = pipelinedAppender(
      async (events) => {
        batches.push(events);
        if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
      { join: joinDeltas },
    );
    const reasoning = (text: string): NewEvent => ({
      type: "reasoning.appended",
      data: { delta: text },
      idempotencyKey: `r:${text}`,
    });
    const message = (text: string): NewEvent => ({
      type: "message.appended",
      data: { delta: text },
      idempotencyKey: `m:${text}`,
    });
    out.push(message("Hel"));
    await Promise.resolve();
    // In flight: the next ones queue up, and a text's deltas side by side become one.
    out.push(
      reasoning("I "),
      reasoning("think"),
      message("lo, "),
      message("you"),
      { type: "step.completed", data: { step: 0, durationMs: 1 } },
      message("!"),
    );
    release();
    await out.flush();
    expect(batches[0]).toEqual([message("Hel")]);
    expect(batches[1]).toEqual([
      { type: "reasoning.appended", data: { delta: "I think" }, idempotencyKey: "r:I " },
      { type: "message.appended", data: { delta: "lo, you" }, idempotencyKey: "m:lo, " },
      { type: "step.completed", data: { step: 0, durationMs: 1 } },
      message("!"),
    ]);
  });
});
