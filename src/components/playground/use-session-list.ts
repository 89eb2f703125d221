"use client";
// The caller's sessions of this agent, newest activity first, filtered by id or title, a page
// at a time.
import { useCallback, useEffect, useState } from "react";
import type { ApiClient } from "./api-client";
import type { SessionList, SessionSummary } from "./types";

const pageSize = 50;

function listPath(query: string, cursor?: string): string {
  const params = new URLSearchParams({ limit: String(pageSize) });
  if (query.trim()) params.set("q", query.trim());
  if (cursor) params.set("cursor", cursor);
  return `/session?${params}`;
}

export function useSessionList(client: ApiClient, query: string, refreshKey: number) {
  const [sessions, setSessions] = useState<SessionSummary[]>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `refreshKey` is the trigger: a new one means reload.
  useEffect(() => {
    const controller = new AbortController();
    // Typing in the search box waits for a pause instead of asking on every key.
    const timer = setTimeout(async () => {
      try {
        const answer = await client.json<SessionList>("GET", listPath(query), { signal: controller.signal });
        setSessions(answer.sessions);
        setNextCursor(answer.nextCursor);
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

  const loadMore = useCallback(async () => {
    if (!nextCursor) return;
    try {
      const answer = await client.json<SessionList>("GET", listPath(query, nextCursor));
      setSessions((current) => [
        ...(current ?? []),
        ...answer.sessions.filter((s) => !current?.some((c) => c.id === s.id)),
      ]);
      setNextCursor(answer.nextCursor);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [client, query, nextCursor]);

  return { sessions, error, hasMore: nextCursor !== null, loadMore };
}
