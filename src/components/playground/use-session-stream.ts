"use client";
// Follows a session's event stream: replays from index 0, then stays live. On a dropped
// connection it reconnects from lastIndex + 1 with backoff, so nothing is missed or repeated.
// Closing the connection never cancels the turn (only /stop does), so unmount just aborts.
import { useEffect, useReducer, useRef, useState } from "react";
import type { SessionEvent } from "@/agents/sdk/events";
import type { ApiClient } from "./api-client";
import { followSessionStream, type StreamStatus } from "./follow-session-stream";
import { applyEvents, emptyTranscript, type Transcript } from "./transcript";

export type { StreamStatus };

type State = { transcript: Transcript; events: SessionEvent[] };
type Action = { type: "reset" } | { type: "events"; events: SessionEvent[] };

function reduce(state: State, action: Action): State {
  if (action.type === "reset") return { transcript: emptyTranscript, events: [] };
  const fresh = action.events.filter((event) => event.index > state.transcript.lastIndex);
  if (!fresh.length) return state;
  return { transcript: applyEvents(state.transcript, fresh), events: [...state.events, ...fresh] };
}

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
    void followSessionStream(client, sessionId, controller.signal, {
      cursor: cursor.current,
      onEvents: (events) => dispatch({ type: "events", events }),
      setStatus,
      setError,
    });
    return () => controller.abort();
  }, [client, sessionId]);

  return { ...state, status, error };
}
