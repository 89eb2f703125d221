// Follows one eval run until it finishes: its state first (GET …/runs/:id), then its stream of
// changes; when the stream ends or drops, the state again — it is the truth, and covers any
// change made between the first read and the stream's start — and, still running, a new stream.
import type { EvalResult, EvalRun } from "@/server/evals/schema";
import { ApiError, type ApiClient } from "./api-client";
import { applyEvalLine, type EvalRunView, isRunFinished, parseEvalLine, viewOf } from "./eval-run-model";
import { lineChunks } from "./line-splitter";

export type EvalFollowStatus = "loading" | "live" | "reconnecting" | "finished" | "failed";

export type EvalFollowHooks = {
  onView: (update: (view: EvalRunView | undefined) => EvalRunView | undefined) => void;
  setStatus: (status: EvalFollowStatus) => void;
  setError: (message: string | undefined) => void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
};

export async function followEvalRun(client: ApiClient, runId: string, signal: AbortSignal, hooks: EvalFollowHooks) {
  const wait = hooks.sleep ?? sleep;
  const base = `/dev/evals/runs/${encodeURIComponent(runId)}`;
  for (let failures = 0; !signal.aborted; ) {
    try {
      const answer = await client.json<{ run: EvalRun; results: EvalResult[] }>("GET", base, { signal });
      hooks.onView(() => viewOf(answer.run, answer.results));
      hooks.setError(undefined);
      if (isRunFinished(answer.run)) return hooks.setStatus("finished");
      const body = await client.stream(`${base}/stream`, signal);
      hooks.setStatus("live");
      const failure = await readEvalStream(body, signal, hooks);
      failures = failure ? failures + 1 : 0;
      if (failure) hooks.setError(failure);
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
        hooks.setStatus("failed");
        return hooks.setError(error.message);
      }
      failures++;
      hooks.setError(error instanceof Error ? `${error.message}; trying again…` : "The run's stream dropped.");
    }
    if (signal.aborted) return;
    hooks.setStatus("reconnecting");
    // A failure backs off; a clean end reads the state again soon (it is finished by then).
    await wait(failures ? Math.min(10_000, 250 * 2 ** failures) : 250, signal);
  }
}

/** Reads a stream to its end; a failure line's message, else undefined. */
async function readEvalStream(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  hooks: EvalFollowHooks,
): Promise<string | undefined> {
  for await (const lines of lineChunks(body)) {
    for (const text of lines) {
      const line = parseEvalLine(text);
      if (!line || signal.aborted) continue;
      if (line.type === "error") return line.message;
      hooks.onView((view) => applyEvalLine(view, line));
    }
  }
  return undefined;
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
