// A session's event stream as NDJSON: replay from startIndex, then live. The stream subscribes
// before it replays, so an event appended in between is never missed, and it tracks the next
// index, so none is sent twice. Heartbeat lines (no index) keep idle streams open through
// proxies. A reader that falls too far behind gets an error line and the stream ends; it resumes
// by index. Closing the stream cancels nothing but the stream.
import type { PrismaClient } from "@prisma/client";
import { ndjsonLine } from "@/server/http/ndjson";
import type { EventHub } from "./event-hub";
import { readEventLines } from "./read-events";

export type StreamOptions = {
  db: PrismaClient;
  hub: EventHub;
  sessionId: string;
  startIndex: number;
  /** 0 turns heartbeats off. */
  heartbeatMs?: number;
  /** Bytes a slow reader may fall behind before the stream ends with an error line. */
  maxBufferedBytes?: number;
  /** Task sessions end their stream after their final event. */
  endAfter?: (event: { type: string }) => boolean;
  clock?: () => Date;
};

const encoder = new TextEncoder();

// Large pages make replay fast; live catch-up reads are small anyway.
const pageSize = 2_000;

export function streamSession(options: StreamOptions): ReadableStream<Uint8Array> {
  const { db, hub, sessionId, heartbeatMs = 15_000, maxBufferedBytes = 1024 * 1024, endAfter, clock = () => new Date() } = options;
  let next = options.startIndex;
  let isDone = false;
  let isPumping = false;
  let isDirty = false;
  let unsubscribe = () => {};
  let heartbeat: NodeJS.Timeout | undefined;

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const finish = (line?: unknown) => {
          if (isDone) return;
          isDone = true;
          if (line) controller.enqueue(ndjsonLine(line));
          unsubscribe();
          clearTimeout(heartbeat);
          controller.close();
        };
        // A heartbeat goes out after heartbeatMs of silence, not on a fixed beat.
        const armHeartbeat = () => {
          clearTimeout(heartbeat);
          if (heartbeatMs > 0 && !isDone) heartbeat = setTimeout(() => write({ type: "heartbeat", at: clock().toISOString() }), heartbeatMs);
        };
        const write = (value: unknown) => writeBytes(ndjsonLine(value));
        const writeBytes = (bytes: Uint8Array) => {
          controller.enqueue(bytes);
          armHeartbeat();
          if ((controller.desiredSize ?? 0) < 0) {
            finish({ type: "error", error: "slow_reader", message: `the reader fell behind; reconnect with startIndex=${next}`, nextIndex: next });
          }
        };
        const pump = async () => {
          if (isPumping) return void (isDirty = true);
          isPumping = true;
          try {
            do {
              isDirty = false;
              for (;;) {
                const events = await readEventLines({ db, sessionId, fromIndex: next, limit: pageSize });
                for (const event of events) {
                  if (isDone) return;
                  // Advance first: if this write ends the stream, the event is already queued.
                  next = event.index + 1;
                  writeBytes(encoder.encode(event.line));
                  if (endAfter?.(event)) return finish();
                }
                if (events.length < pageSize) break;
              }
            } while (isDirty && !isDone);
          } catch (error) {
            // Once streaming has started, failures are lines, never a status change.
            finish({ type: "error", error: "stream_failed", message: (error as Error).message, nextIndex: next });
          } finally {
            isPumping = false;
          }
        };
        unsubscribe = hub.subscribe(sessionId, () => void pump());
        armHeartbeat();
        void pump();
      },
      cancel() {
        isDone = true;
        unsubscribe();
        clearTimeout(heartbeat);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: maxBufferedBytes }),
  );
}
