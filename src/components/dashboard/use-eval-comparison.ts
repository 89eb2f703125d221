"use client";
// What the side-by-side of two runs reads: each run's results, then the logs of their eval
// sessions (GET …/session/:id/events), a few at a time.
import { useEffect, useRef, useState } from "react";
import type { EvalResult, EvalRun } from "@/server/evals/schema";
import type { ApiClient } from "@/components/playground/api-client";
import { parseTraceFile } from "@/components/playground/trace-file";
import { type Trajectory, trajectoryOf } from "./eval-history-model";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function useRunResults(client: ApiClient, runId: string | undefined) {
  const [state, setState] = useState<{ runId?: string; results?: EvalResult[]; error?: string }>({});
  useEffect(() => {
    if (!runId) return;
    const controller = new AbortController();
    client
      .json<{ run: EvalRun; results: EvalResult[] }>("GET", `/dev/evals/runs/${encodeURIComponent(runId)}`, {
        signal: controller.signal,
      })
      .then((answer) => setState({ runId, results: answer.results }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ runId, error: messageOf(error) });
      });
    return () => controller.abort();
  }, [client, runId]);
  return state.runId === runId ? state : {};
}

export type SessionTrajectory = Trajectory | { error: string };

const concurrency = 4;
// Past this many sessions the comparison shows the rest as not loaded: each is one request.
export const maxComparedSessions = 200;

export function useTrajectories(client: ApiClient, sessionIds: readonly string[]) {
  // Logs of finished sessions do not change: each is read once, whichever runs are compared.
  const cache = useRef<Record<string, SessionTrajectory>>({});
  const [, setVersion] = useState(0);
  const wanted = sessionIds.slice(0, maxComparedSessions).join(" ");
  useEffect(() => {
    const controller = new AbortController();
    const queue = wanted ? wanted.split(" ").filter((id) => !(id in cache.current)) : [];
    const worker = async () => {
      for (let id = queue.shift(); id && !controller.signal.aborted; id = queue.shift()) {
        const sessionId = id;
        try {
          const body = await client.stream(`/session/${encodeURIComponent(sessionId)}/events`, controller.signal);
          cache.current[sessionId] = trajectoryOf(parseTraceFile(await new Response(body).text()).events);
        } catch (error) {
          if (controller.signal.aborted) return;
          cache.current[sessionId] = { error: messageOf(error) };
        }
        setVersion((n) => n + 1);
      }
    };
    void Promise.all(Array.from({ length: concurrency }, worker));
    return () => controller.abort();
  }, [client, wanted]);
  return cache.current;
}
