"use client";
import { useEffect, useRef, useState } from "react";
import type { ApiClient } from "./api-client";
import { appendLines, type LogFilters, type LogLine, logsPath } from "./logs-model";

export type AgentLogs = { lines: LogLine[]; error?: string; isLoading: boolean };

const pollMs = 1_000;

/** The agent's newest log lines, then — while `isFollowing` — every new one, polled each second.
 * Pausing keeps what is shown; new filters start over. */
export function useAgentLogs(client: ApiClient, filters: LogFilters, isFollowing: boolean): AgentLogs {
  const [state, setState] = useState<AgentLogs>({ lines: [], isLoading: true });
  const isFollowingRef = useRef(isFollowing);
  const resume = useRef<() => void>(() => {});
  const { level, source, session } = filters;

  useEffect(() => {
    const controller = new AbortController();
    const current = { level, source, session };
    let cursor: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let isReading = false;
    setState({ lines: [], isLoading: true });
    const read = async () => {
      isReading = true;
      try {
        const answer = await client.json<{ lines: LogLine[]; nextCursor: string }>("GET", logsPath(current, cursor), {
          signal: controller.signal,
        });
        cursor = answer.nextCursor;
        setState((before) => ({ lines: appendLines(before.lines, answer.lines), isLoading: false }));
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        setState((before) => ({ ...before, isLoading: false, error: message }));
      } finally {
        isReading = false;
      }
      if (isFollowingRef.current && !controller.signal.aborted) timer = setTimeout(read, pollMs);
    };
    resume.current = () => {
      if (!isReading && !controller.signal.aborted) clearTimeout(timer), void read();
    };
    void read();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [client, level, source, session]);

  useEffect(() => {
    isFollowingRef.current = isFollowing;
    if (isFollowing) resume.current();
  }, [isFollowing]);
  return state;
}
