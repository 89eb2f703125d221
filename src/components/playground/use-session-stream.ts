"use client";
// Follows a session's event stream: replays from index 0, then stays live. On a dropped
// connection it reconnects from lastIndex + 1 with backoff, so nothing is missed or repeated.
// Closing the connection never cancels the turn (only /stop does), so unmount just aborts.
import { useEffect, useReducer, useRef, useState } from "react";
import type { SessionEvent } from "@/agents/sdk/events";
import { ApiError, type ApiClient } from "./api-client";
import { readEventLines } from "./read-event-lines";
import { applyEvents, emptyTranscript, type Transcript } from "./transcript";

export type StreamStatus = "idle" | "connecting" | "live" | "reconnecting" | "ended" | "failed";

type State = { transcript: Transcript; events: SessionEvent[] };
type Action = { type: "reset" } | { type: "events"; events: SessionEvent[] };

function reduce(state: State, action: Action): State {
  if (action.type === "reset") return { transcript: emptyTranscript, events: [] };
  const fresh = action.events.filter((event) => event.index > state.transcript.lastIndex);
  if (!fresh.length) return state;
  return { transcript: applyEvents(state.transcript, fresh), events: [...state.events, ...fresh] };
}

const maxBackoffMs = 10_000;

export function useSessionStream(client: ApiClient, sessionId: string | undefined) {
  const [state, dispatch] = useReducer(reduce, { transcript: emptyTranscript, events: [] });
  const [status, setStatus] = useState<StreamStatus>("idle");
  const [error, setError] = useState<string>();
  const cursor = useRef<{ sessionId?: string; lastIndex: number }>({ lastIndex: -1 });

  useEffect(() => {
    if (cursor.current.sessionId !== sessionId) {
      cursor.current = { sessionId, lastIndex: -1 };
      dispatch({ type: "reset" });
    }
    setError(undefined);
    if (!sessionId) {
      setStatus("idle");
      return;
    }
    const controller = new AbortController();
    void follow(client, sessionId, controller.signal, {
      cursor: cursor.current,
      onEvents: (events) => dispatch({ type: "events", events }),
      setStatus,
      setError,
    });
    return () => controller.abort();
  }, [client, sessionId]);

  return { ...state, status, error };
}

type FollowHooks = {
  cursor: { lastIndex: number };
  onEvents: (events: SessionEvent[]) => void;
  setStatus: (status: StreamStatus) => void;
  setError: (message: string | undefined) => void;
};

async function follow(client: ApiClient, sessionId: string, signal: AbortSignal, hooks: FollowHooks) {
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
      hooks.setError(error instanceof Error ? `The event stream dropped (${error.message}); reconnecting…` : "The event stream dropped; reconnecting…");
    }
    failures = received ? 1 : failures + 1;
    await sleep(Math.min(maxBackoffMs, 250 * 2 ** failures) * (0.75 + Math.random() / 2), signal);
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
