import { describe, expect, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { readEventLines } from "./read-event-lines";

const event = (index: number, delta: string) =>
  JSON.stringify({
    type: "message.appended",
    index,
    sessionId: "ses_1",
    turnId: "t1",
    at: "2026-01-01T00:00:00.000Z",
    data: { delta },
  });

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function read(chunks: string[]) {
  const batches: SessionEvent[][] = [];
  const outcome = await readEventLines(body(chunks), (events) => batches.push(events));
  return { outcome, indexes: batches.flat().map((e) => e.index), batches };
}

describe("readEventLines", () => {
  it("parses events split across chunks and skips heartbeats", async () => {
    const line = event(0, "a");
    const { outcome, indexes } = await read([
      line.slice(0, 10),
      line.slice(10) + "\n",
      '{"type":"heartbeat","at":"2026-01-01T00:00:15Z"}\n',
      event(1, "b"),
    ]);
    expect(outcome).toBe("ended");
    expect(indexes).toEqual([0, 1]);
  });

  it("stops at a slow_reader error line, keeping the events before it", async () => {
    const { outcome, indexes } = await read([
      `${event(0, "a")}\n{"type":"error","error":"slow_reader","nextIndex":1}\n${event(1, "b")}\n`,
    ]);
    expect(outcome).toBe("slow_reader");
    expect(indexes).toEqual([0]);
  });

  it("skips lines that are not valid events instead of failing the stream", async () => {
    const { indexes } = await read(["not json\n", '{"type":"message.appended","index":"x"}\n', `${event(2, "c")}\n`]);
    expect(indexes).toEqual([2]);
  });

  it("hands over one batch per network chunk", async () => {
    const { batches } = await read([`${event(0, "a")}\n${event(1, "b")}\n`, `${event(2, "c")}\n`]);
    expect(batches.map((batch) => batch.length)).toEqual([2, 1]);
  });
});
