"use client";
// The caller's sessions of this agent, newest activity first, filtered by id or title.
import { useEffect, useState } from "react";
import type { ApiClient } from "./api-client";
import type { SessionList, SessionSummary } from "./types";

export function useSessionList(client: ApiClient, query: string, refreshKey: number) {
  const [sessions, setSessions] = useState<SessionSummary[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    // Typing in the search box waits for a pause instead of asking on every key.
    const timer = setTimeout(async () => {
      try {
        const params = new URLSearchParams({ limit: "50" });
        if (query.trim()) params.set("q", query.trim());
        const answer = await client.json<SessionList>("GET", `/session?${params}`, { signal: controller.signal });
        setSessions(answer.sessions);
        setError(undefined);
      } catch (caught) {
        if (controller.signal.aborted) return;
        setError(caught instanceof Error ? caught.message : String(caught));
      }
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, query, refreshKey]);
  return { sessions, error };
}
