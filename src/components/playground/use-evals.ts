"use client";
// The Evals tab's reads: the agent's evals, its recent runs, and one run followed live.
import { useCallback, useEffect, useState } from "react";
import type { EvalListing, EvalRun, EvalSelection } from "@/server/evals/schema";
import type { ApiClient } from "./api-client";
import type { EvalRunView } from "./eval-run-model";
import { type EvalFollowStatus, followEvalRun } from "./follow-eval-run";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** GET `path` once per `refreshKey`; the last answer stays while the next one loads. */
function useJson<T>(client: ApiClient, path: string, refreshKey: number) {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: `refreshKey` is the trigger: a new one means reload.
  useEffect(() => {
    const controller = new AbortController();
    client
      .json<T>("GET", path, { signal: controller.signal })
      .then((data) => setState({ data }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState((before) => ({ ...before, error: messageOf(error) }));
      });
    return () => controller.abort();
  }, [client, path, refreshKey]);
  return state;
}

export function useEvalListing(client: ApiClient) {
  return useJson<EvalListing>(client, "/dev/evals", 0);
}

export function useEvalRuns(client: ApiClient, refreshKey: number, limit = 20) {
  const { data, error } = useJson<{ runs: EvalRun[] }>(client, `/dev/evals/runs?limit=${limit}`, refreshKey);
  return { runs: data?.runs, error };
}

/** Starts a run of `selection`; resolves to its id, or undefined when the server refused (see `error`). */
export function useStartEvalRun(client: ApiClient) {
  const [error, setError] = useState<string>();
  const [isStarting, setIsStarting] = useState(false);
  const start = useCallback(
    async (selection: EvalSelection): Promise<string | undefined> => {
      setIsStarting(true);
      try {
        const answer = await client.json<{ runId: string }>("POST", "/dev/evals", { body: selection });
        setError(undefined);
        return answer.runId;
      } catch (caught) {
        setError(messageOf(caught));
        return undefined;
      } finally {
        setIsStarting(false);
      }
    },
    [client],
  );
  return { start, error, isStarting };
}

export function useEvalRun(client: ApiClient, runId: string | undefined) {
  const [view, setView] = useState<EvalRunView>();
  const [status, setStatus] = useState<EvalFollowStatus>("loading");
  const [error, setError] = useState<string>();
  useEffect(() => {
    setView(undefined);
    setError(undefined);
    setStatus("loading");
    if (!runId) return;
    const controller = new AbortController();
    void followEvalRun(client, runId, controller.signal, {
      onView: (update) => setView((current) => update(current)),
      setStatus,
      setError,
    });
    return () => controller.abort();
  }, [client, runId]);
  return { view, status, error };
}
