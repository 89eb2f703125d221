// A session's event stream as NDJSON: replay from startIndex, then live. The stream subscribes
// before it replays, so an event appended in between is never missed, and it tracks the next
// index, so none is sent twice. Heartbeat lines (no index) keep idle streams open through
// proxies. A reader that falls too far behind gets an error line and the stream ends; it resumes
// by index. Closing the stream cancels nothing but the stream.
import type { PrismaClient } from "@prisma/client";
import type { ErrorLine, HeartbeatLine } from "@/agents/sdk/stream-lines";
import { AppError } from "@/server/errors";
import { ndjsonLine } from "@/server/http/ndjson";
import type { EventHub } from "./event-hub";
import { readEventLines, readSessionAndEventLines, type EventLine, type StreamedSession } from "./read-events";

export type StreamOptions = {
  db: PrismaClient;
  hub: EventHub;
  sessionId: string;
  startIndex: number;
  /** 0 turns heartbeats off. */
  heartbeatMs?: number;
  /** Bytes queued for the reader before the stream waits for it to catch up. */
  maxBufferedBytes?: number;
  /** How long the stream waits for a reader that has stopped reading before it ends with an
   * error line naming the index to resume from. */
  slowReaderMs?: number;
  /** Task sessions end their stream after their final event. */
  endAfter?: (event: { type: string }) => boolean;
  /** The log from startIndex on, read already (openSessionStream), and whether a notice for the
   * session arrived while it was read. */
  firstPage?: { lines: EventLine[]; heardMeanwhile: boolean };
  /** Checks the caller's credential again every `everyMs` while the stream is open; a throw ends
   * the stream with an error line carrying the AppError's code (a revoked token: `unauthorized`). */
  recheck?: { everyMs: number; check: () => Promise<unknown> };
  clock?: () => Date;
};

const encoder = new TextEncoder();

// Large pages make replay fast; live catch-up reads are small anyway.
const pageSize = 2_000;

export function streamSession(options: StreamOptions): ReadableStream<Uint8Array> {
  const {
    db,
    hub,
    sessionId,
    heartbeatMs = 15_000,
    maxBufferedBytes = 1024 * 1024,
    slowReaderMs = 30_000,
    endAfter,
    clock = () => new Date(),
  } = options;
  let next = options.startIndex;
  let isDone = false;
  let isPumping = false;
  let isDirty = false;
  let unsubscribe = () => {};
  let heartbeat: NodeJS.Timeout | undefined;
  let rechecking: NodeJS.Timeout | undefined;
  let onDrained: (() => void) | undefined;

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const finish = (line?: ErrorLine) => {
          if (isDone) return;
          isDone = true;
          if (line) controller.enqueue(ndjsonLine(line));
          unsubscribe();
          clearTimeout(heartbeat);
          clearInterval(rechecking);
          controller.close();
        };
        // A heartbeat goes out after heartbeatMs of silence, not on a fixed beat.
        const armHeartbeat = () => {
          clearTimeout(heartbeat);
          if (heartbeatMs > 0 && !isDone)
            heartbeat = setTimeout(
              () => write({ type: "heartbeat", at: clock().toISOString() } satisfies HeartbeatLine),
              heartbeatMs,
            );
        };
        const write = (value: unknown) => writeBytes(ndjsonLine(value));
        const writeBytes = (bytes: Uint8Array) => {
          controller.enqueue(bytes);
          armHeartbeat();
        };
        // Memory stays bounded: past the high-water mark the stream reads no further pages
        // until the reader catches up. The writer and other readers never wait for this one;
        // a reader stalled for slowReaderMs is cut off with a resumable error line.
        const drained = async (): Promise<boolean> => {
          if ((controller.desiredSize ?? 1) > 0) return true;
          const isCaughtUp = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), slowReaderMs);
            onDrained = () => (clearTimeout(timer), resolve(true));
          });
          onDrained = undefined;
          if (!isCaughtUp)
            finish({
              type: "error",
              error: "slow_reader",
              message: `the reader fell behind; reconnect with startIndex=${next}`,
              nextIndex: next,
            });
          return isCaughtUp;
        };
        // Writes the next page (events from `next` on); true when it ended the stream.
        const writePage = (events: EventLine[]): boolean => {
          // One chunk per page, cut after a task session's final event.
          const last = events.findIndex((event) => endAfter?.(event));
          const page = last === -1 ? events : events.slice(0, last + 1);
          if (page.length > 0) {
            // Advance first: if this write ends the stream, the page is already queued.
            next = page.at(-1)!.index + 1;
            writeBytes(encoder.encode(page.map((event) => event.line).join("")));
          }
          if (last !== -1) finish();
          return last !== -1;
        };
        const pump = async () => {
          if (isPumping) return void (isDirty = true);
          isPumping = true;
          try {
            do {
              isDirty = false;
              for (;;) {
                if (!(await drained())) return;
                const events = await readEventLines({ db, sessionId, fromIndex: next, limit: pageSize });
                if (isDone) return;
                if (writePage(events)) return;
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
        // A notification that carries the events right after the last one sent is written as
        // it is; anything else (a gap, a reader behind, a read in progress) goes to the log.
        const onEvents = (lines?: EventLine[]) => {
          if (isDone) return;
          const fresh = lines?.filter((line) => line.index >= next);
          if (
            isPumping ||
            !fresh ||
            (fresh.length > 0 && (fresh[0]!.index !== next || (controller.desiredSize ?? 1) <= 0))
          )
            return void pump();
          writePage(fresh);
        };
        unsubscribe = hub.subscribe(sessionId, onEvents);
        // Next and the API front send a response's headers with its first chunk: an empty one
        // sends them now, so a stream resumed at the end of the log is open before anything happens.
        controller.enqueue(new Uint8Array(0));
        armHeartbeat();
        const { recheck } = options;
        if (recheck) {
          rechecking = setInterval(() => {
            recheck.check().catch((error: unknown) => {
              const code = error instanceof AppError ? error.code : "unavailable";
              const message =
                error instanceof AppError ? error.message : "the stream's credential could not be checked; reconnect";
              finish({ type: "error", error: code, message, nextIndex: next });
            });
          }, recheck.everyMs);
        }
        const first = options.firstPage;
        if (!first) return void pump();
        // Past a full page there is more to read, and a notice heard meanwhile may have more.
        if (!writePage(first.lines) && (first.lines.length >= pageSize || first.heardMeanwhile)) void pump();
      },
      pull() {
        onDrained?.();
      },
      cancel() {
        isDone = true;
        onDrained?.();
        unsubscribe();
        clearTimeout(heartbeat);
        clearInterval(rechecking);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: maxBufferedBytes }),
  );
}

/**
 * A session's stream, opened with one statement: subscribed first, then the session (of this
 * agent) and its log's first page read together; `check` answers for the session (404, 403) before
 * anything is sent. A notice that arrives during the read is not lost: the stream reads on.
 */
export async function openSessionStream(
  options: Omit<StreamOptions, "firstPage" | "endAfter" | "recheck"> & {
    agentId: string;
    check: (session: StreamedSession | undefined) => StreamedSession | Promise<StreamedSession>;
    endAfter?: (session: StreamedSession) => StreamOptions["endAfter"];
    /** The session's check made again, with the caller's credential read anew. */
    recheck?: { everyMs: number; check: (session: StreamedSession) => Promise<unknown> };
  },
): Promise<ReadableStream<Uint8Array>> {
  const { db, hub, sessionId, agentId, startIndex } = options;
  let heardMeanwhile = false;
  const stopHearing = hub.subscribe(sessionId, () => void (heardMeanwhile = true));
  try {
    const read = await readSessionAndEventLines({ db, agentId, sessionId, fromIndex: startIndex, limit: pageSize });
    const session = await options.check(read.session);
    // The stream subscribes as it is made, before this early subscription ends: nothing between.
    const { recheck } = options;
    return streamSession({
      ...options,
      endAfter: options.endAfter?.(session),
      recheck: recheck && { everyMs: recheck.everyMs, check: () => recheck.check(session) },
      firstPage: { lines: read.lines, heardMeanwhile },
    });
  } finally {
    stopHearing();
  }
}
