import { describe, expect, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { ApiError, type ApiClient } from "./api-client";
import { followSessionStream, type StreamStatus } from "./follow-session-stream";

const line = (index: number, type = "message.appended", data: object = { delta: `d${index}` }) =>
  JSON.stringify({ type, index, sessionId: "ses_1", turnId: "t1", at: "2026-01-01T00:00:00.000Z", data }) + "\n";

/** A body that sends its lines, then either ends or breaks like a dropped connection. */
function body(lines: string[], end: "close" | "error"): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const queue = [...lines];
  // pull, not start: an error raised with chunks still queued would discard them.
  return new ReadableStream({
    pull(controller) {
      const text = queue.shift();
      if (text !== undefined) controller.enqueue(encoder.encode(text));
      else if (end === "close") controller.close();
      else controller.error(new TypeError("network error"));
    },
  });
}

/** A client that answers each stream request with the next scripted response. */
function scriptedClient(responses: (() => ReadableStream<Uint8Array>)[]) {
  const paths: string[] = [];
  const client: ApiClient = {
    json: () => Promise.reject(new Error("not used")),
    stream: async (path) => {
      paths.push(path);
      const next = responses.shift();
      if (!next) throw new Error("no more responses");
      return next();
    },
  };
  return { client, paths };
}

async function follow(client: ApiClient, options: { stopAfter?: number } = {}) {
  const controller = new AbortController();
  const events: SessionEvent[] = [];
  const statuses: StreamStatus[] = [];
  const errors: (string | undefined)[] = [];
  const waits: number[] = [];
  await followSessionStream(client, "ses_1", controller.signal, {
    cursor: { lastIndex: -1 },
    onEvents: (batch) => events.push(...batch),
    setStatus: (status) => statuses.push(status),
    setError: (error) => errors.push(error),
    sleep: async (ms) => {
      waits.push(ms);
      if (waits.length >= (options.stopAfter ?? 5)) controller.abort();
    },
  });
  return { events, statuses, errors, waits };
}

describe("followSessionStream", () => {
  it("reconnects from the last index + 1 after a dropped connection, missing and repeating nothing", async () => {
    const { client, paths } = scriptedClient([
      () => body([line(0), line(1)], "error"),
      () => body([line(2), line(3)], "close"),
    ]);
    const { events, statuses } = await follow(client, { stopAfter: 3 });
    expect(paths).toEqual([
      "/session/ses_1/stream?startIndex=0",
      "/session/ses_1/stream?startIndex=2",
      "/session/ses_1/stream?startIndex=4",
    ]);
    expect(events.map((event) => event.index)).toEqual([0, 1, 2, 3]);
    expect(statuses.slice(0, 3)).toEqual(["connecting", "live", "reconnecting"]);
  });

  it("backs off longer while attempts keep failing", async () => {
    const failing = () => {
      throw new ApiError(503, "unavailable", "down");
    };
    const { client } = scriptedClient([failing, failing, failing, failing]);
    const { waits, errors } = await follow(client, { stopAfter: 4 });
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThan(waits[i - 1]! * 1.2);
    expect(errors.at(-1)).toMatch(/reconnecting/);
  });

  it("gives up on a refused stream and says why", async () => {
    const { client, paths } = scriptedClient([
      () => {
        throw new ApiError(403, "forbidden", "not your session. Use a token scoped to this agent…");
      },
    ]);
    const { statuses, errors, waits } = await follow(client);
    expect(paths).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(statuses.at(-1)).toBe("failed");
    expect(errors.at(-1)).toMatch(/not your session/);
  });

  it("stops once a task session's stream has ended after its last event", async () => {
    const { client, paths } = scriptedClient([() => body([line(0), line(1, "session.completed", {})], "close")]);
    const { statuses } = await follow(client);
    expect(paths).toHaveLength(1);
    expect(statuses.at(-1)).toBe("ended");
  });

  it("reconnects at once after a slow_reader line", async () => {
    const { client, paths } = scriptedClient([
      () => body([line(0), '{"type":"error","error":"slow_reader","nextIndex":1}\n'], "close"),
      () => body([line(1)], "close"),
    ]);
    const { events, waits } = await follow(client, { stopAfter: 1 });
    expect(paths.slice(0, 2)).toEqual(["/session/ses_1/stream?startIndex=0", "/session/ses_1/stream?startIndex=1"]);
    expect(events.map((event) => event.index)).toEqual([0, 1]);
    expect(waits).toHaveLength(1); // only after the second response ended, none before it
  });
});
