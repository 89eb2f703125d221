import { describe, expect, it } from "vitest";
import { sessionEventSchema } from "@/agents/sdk/events";
import { parseTraceFile, toNdjson } from "./trace-file";

const events = [
  { type: "turn.started", data: {} },
  { type: "step.started", data: { step: 0 } },
  { type: "turn.completed", data: {} },
].map((event, index) =>
  sessionEventSchema.parse({ ...event, index, sessionId: "ses_f", turnId: "turn_1", at: "2026-01-01T00:00:00.000Z" }),
);

describe("trace files", () => {
  it("reads back what it wrote", () => {
    expect(parseTraceFile(toNdjson(events))).toEqual({ events, skipped: 0 });
  });

  it("skips lines that are not events and counts them, and takes CRLF and a missing last newline", () => {
    const lines = toNdjson(events).trimEnd().split("\n");
    const text = [lines[0], '{"type":"heartbeat"}', "not json", "", lines[1], `${lines[2]}`].join("\r\n");
    expect(parseTraceFile(text)).toEqual({ events, skipped: 2 });
  });

  it("reads an empty file as no events", () => {
    expect(parseTraceFile("")).toEqual({ events: [], skipped: 0 });
  });
});
