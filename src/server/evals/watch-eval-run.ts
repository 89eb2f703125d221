// GET …/dev/evals/runs/:id/stream: a run's progress as NDJSON lines (src/server/evals/schema.ts
// EvalStreamLine): the run first, then each result whenever it starts or ends, the run again when
// its counts move, and the finished run last, which ends the stream. Read from the database every
// `everyMs`, since results are written by whichever worker runs them.
import type { PrismaClient } from "@prisma/client";
import { ndjsonLine } from "@/server/http/ndjson";
import { readEvalRun } from "./read-eval-run";
import type { EvalStreamLine } from "./schema";

export function watchEvalRun(options: {
  db: PrismaClient;
  runId: string;
  agentId?: string;
  everyMs?: number;
  signal?: AbortSignal;
}): ReadableStream<Uint8Array> {
  const { db, runId, agentId, everyMs = 250, signal } = options;
  const seen = new Map<string, string>();
  let counts = "";
  let timer: NodeJS.Timeout | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (line: EvalStreamLine) => controller.enqueue(ndjsonLine(line));
      const step = async () => {
        if (signal?.aborted) return controller.close();
        try {
          const { run, results } = await readEvalRun(db, runId, agentId);
          const isFirst = counts === "";
          if (isFirst) send({ type: "run", run });
          for (const result of results) {
            const key = `${result.caseId}\n${result.iteration}`;
            if (seen.get(key) === result.status) continue;
            seen.set(key, result.status);
            // A case still waiting is news only once it starts.
            if (!(isFirst && result.status === "pending")) send({ type: "result", result });
          }
          const now = JSON.stringify(run.counts);
          if (!isFirst && (now !== counts || run.finishedAt)) send({ type: "run", run });
          counts = now;
          if (run.finishedAt) return controller.close();
        } catch (error) {
          return controller.error(error);
        }
        timer = setTimeout(() => void step(), everyMs);
      };
      void step();
    },
    cancel() {
      clearTimeout(timer);
    },
  });
}
