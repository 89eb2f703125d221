import { describe, expect, it } from "vitest";
import { sessionEventSchema } from "./events";
import { streamControlLineSchema } from "./stream-lines";

describe("stream control lines", () => {
  it("parses the heartbeat and error lines a stream sends", () => {
    expect(streamControlLineSchema.parse({ type: "heartbeat", at: "2026-01-01T00:00:15.000Z" }).type).toBe("heartbeat");
    const line = {
      type: "error",
      error: "slow_reader",
      message: "the reader fell behind; reconnect with startIndex=7",
      nextIndex: 7,
    };
    expect(streamControlLineSchema.parse(line)).toEqual(line);
  });

  it("never takes an event for a control line, nor a control line for an event", () => {
    const event = { type: "turn.started", index: 0, sessionId: "ses_1", at: "2026-01-01T00:00:00.000Z", data: {} };
    expect(streamControlLineSchema.safeParse(event).success).toBe(false);
    expect(sessionEventSchema.safeParse({ type: "heartbeat", at: "2026-01-01T00:00:15.000Z" }).success).toBe(false);
  });

  it("refuses an error line without the index to resume from", () => {
    expect(streamControlLineSchema.safeParse({ type: "error", error: "slow_reader" }).success).toBe(false);
  });
});
