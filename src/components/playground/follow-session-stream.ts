// The reconnect loop behind useSessionStream: read from lastIndex + 1, hand events over, and on
// a dropped or failed connection try again with backoff. Access errors stop it: retrying a 401
// or 404 cannot help, and the message says what to do instead.
import type { SessionEvent } from "@/agents/sdk/events";
import { ApiError, type ApiClient } from "./api-client";
import { readEventLines } from "./read-event-lines";

export type StreamStatus = "idle" | "connecting" | "live" | "reconnecting" | "ended" | "failed";

const maxBackoffMs = 10_000;

export type FollowHooks = {
  cursor: { lastIndex: number };
  onEvents: (events: SessionEvent[]) => void;
  setStatus: (status: StreamStatus) => void;
  setError: (message: string | undefined) => void;
  /** Waits between attempts; tests pass one that does not. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
};

/** Runs until aborted (or a task session's stream ends for good, or access is refused). */
export async function followSessionStream(
  client: ApiClient,
  sessionId: string,
  signal: AbortSignal,
  hooks: FollowHooks,
) {
  const wait = hooks.sleep ?? sleep;
  let failures = 0;
  let isTaskDone = false;
  while (!signal.aborted) {
    hooks.setStatus(failures ? "reconnecting" : "connecting");
    let received = false;
    try {
      const path = `/session/${encodeURIComponent(sessionId)}/stream?startIndex=${hooks.cursor.lastIndex + 1}`;
      const body = await client.stream(path, signal);
      hooks.setStatus("live");
      hooks.setError(undefined);
      const outcome = await readEventLines(body, (events) => {
        if (signal.aborted) return;
        received = true;
        hooks.cursor.lastIndex = Math.max(hooks.cursor.lastIndex, events.at(-1)!.index);
        isTaskDone ||= events.some((event) => event.type === "session.completed" || event.type === "session.failed");
        hooks.onEvents(events);
      });
      // A task session's stream ends for good after its last event; there is nothing to wait for.
      if (outcome === "ended" && isTaskDone) return hooks.setStatus("ended");
      if (outcome === "slow_reader") continue;
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
        hooks.setStatus("failed");
        return hooks.setError(error.message);
      }
      hooks.setError(
        error instanceof Error
          ? `The event stream dropped (${error.message}); reconnecting…`
          : "The event stream dropped; reconnecting…",
      );
    }
    failures = received ? 1 : failures + 1;
    await wait(Math.min(maxBackoffMs, 250 * 2 ** failures) * (0.75 + Math.random() / 2), signal);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });
}
