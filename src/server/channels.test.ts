import { describe, expect, it } from "vitest";
import { channels, secretsChannel, turnCancelChannel, turnStartChannel } from "./channels";

describe("NOTIFY channels", () => {
  it("each have their own name", () => {
    const names = channels.map((channel) => channel.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("read back a turn start as sent, and ignore one that is not", () => {
    const notice = { worker: 7, turn: { sessionId: "ses_1", turnId: "turn_1", message: "hi" } };
    expect(turnStartChannel.decode(turnStartChannel.encode!(notice))).toEqual(notice);
    // The shape the session-start statement writes (record-session-start.ts).
    expect(turnStartChannel.decode(`{"worker":7,"turn":${JSON.stringify(notice.turn)}}`)).toEqual(notice);
    for (const payload of [
      "{",
      '{"worker":"7","turn":{}}',
      '{"turn":{"sessionId":"ses_1","turnId":"t","message":"m"}}',
    ]) {
      expect(turnStartChannel.decode(payload)).toBeUndefined();
    }
  });

  it("carry ids as they are, and no empty one", () => {
    expect(turnCancelChannel.decode("turn_1")).toBe("turn_1");
    expect(secretsChannel.decode("")).toBeUndefined();
  });
});
