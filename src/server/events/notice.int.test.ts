// An append's notification carries its events when they fit: the lines a stream writes from it
// are exactly the lines it would have read from the log; events too large to fit leave only the
// "S:N" head, and the stream reads them.
import { afterAll, describe, expect, inject, it } from "vitest";
import { waitFor } from "@/cli/start/wait";
import { createDb } from "@/server/db";
import { createTestSession } from "@/testing/fixtures";
import { sessionEventsChannel } from "@/server/channels";
import { appendEvents } from "./append-events";
import { parseNotice, type Notice } from "./notice";
import { listen } from "./pg-listener";
import { readEventLines } from "./read-events";

const databaseUrl = inject("databaseUrl");
const db = createDb(databaseUrl);

afterAll(async () => {
  await db.$disconnect();
});

describe("append notifications", () => {
  it("carry the appended events as the same NDJSON lines the log gives, unless they are too large", async () => {
    const { id: sessionId } = await createTestSession(db);
    const notices: Notice[] = [];
    const listener = await listen({
      name: "test",
      databaseUrl,
      channels: { [sessionEventsChannel.name]: (payload) => notices.push(parseNotice(payload)!) },
    });
    try {
      await appendEvents({
        db,
        sessionId,
        events: [
          { type: "message.received", turnId: "t1", data: { text: 'tab\there, newline\nthere, quote " and ünïcode' } },
          { type: "session.waiting", data: {} },
        ],
      });
      await appendEvents({
        db,
        sessionId,
        events: [{ type: "message.received", turnId: "t2", data: { text: "x".repeat(9_000) } }],
      });
      await waitFor("both notifications", async () => notices.filter((n) => n.sessionId === sessionId).length === 2, {
        timeoutMs: 5_000,
      });
      const [small, large] = notices.filter((n) => n.sessionId === sessionId);
      expect(small!.lastIndex).toBe(1);
      expect(small!.lines).toEqual(await readEventLines({ db, sessionId, fromIndex: 0, limit: 2 }));
      expect(large).toEqual({ sessionId, lastIndex: 2 });
    } finally {
      await listener.close();
    }
  });
});
