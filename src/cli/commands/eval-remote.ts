// `agentfold eval --url … --token …`: the agent's evals on a running instance, through its
// /<slug>/v1/dev/evals routes (docs/api.md): list, start a run, follow the run's stream.
import { z } from "zod";
import { parseNdjson } from "@/server/http/ndjson";
import type { Instance } from "@/cli/remote/instance";
import { instanceClient, parseAnswer } from "@/cli/remote/instance-client";
import { AppError } from "@/server/errors";
import { evalListingSchema, evalResultSchema, evalRunSchema, type EvalSelection } from "@/server/evals/schema";
import type { EvalBackend, RunOutcome } from "./eval-backend";

const startedSchema = z.object({
  ok: z.literal(true),
  runId: z.string(),
  cases: z.array(z.object({ id: z.string(), iterations: z.number().int() })),
});
const runAnswerSchema = z.object({ ok: z.literal(true), run: evalRunSchema, results: z.array(evalResultSchema) });
const streamLineSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("run"), run: evalRunSchema }),
  z.object({ type: z.literal("result"), result: evalResultSchema }),
]);
const draftSchema = z.object({ ok: z.literal(true), path: z.string(), source: z.string() });

/** How often a stream that ended early is opened again before giving up. */
const maxReconnects = 5;

export type RemoteTarget = Instance & { slug: string };

export function remoteClient(target: RemoteTarget) {
  const client = instanceClient(target, `/${encodeURIComponent(target.slug)}/v1`);
  return {
    request: client.request,
    draft: (sessionId: string) =>
      client.request("GET", `/session/${encodeURIComponent(sessionId)}/eval-draft`, draftSchema),
    stream: (runId: string, signal: AbortSignal) =>
      client.send("GET", `/dev/evals/runs/${encodeURIComponent(runId)}/stream`, {
        accept: "application/x-ndjson",
        signal,
      }),
  };
}

export function remoteBackend(target: RemoteTarget): EvalBackend {
  const client = remoteClient(target);
  return {
    where: `${target.slug} on ${target.url}`,
    list: () => client.request("GET", "/dev/evals", evalListingSchema),
    start: async (selection: EvalSelection) => {
      const { runId, cases } = await client.request("POST", "/dev/evals", startedSchema, selection);
      return { runId, cases };
    },
    follow: (runId, onResult, signal) => followStream(client, runId, onResult, signal),
    close: async () => undefined,
  };
}

/** Follows the run's stream to its final run line; a stream cut short is opened again (it starts
 * over with the run and every result, so nothing is missed), and the final answer is read once. */
async function followStream(
  client: ReturnType<typeof remoteClient>,
  runId: string,
  onResult: (result: z.infer<typeof evalResultSchema>) => void,
  signal: AbortSignal,
): Promise<RunOutcome> {
  for (let attempt = 0; attempt <= maxReconnects; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    let response: Response;
    try {
      response = await client.stream(runId, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      continue;
    }
    if (!response.ok) await parseAnswer(response, z.never(), `GET …/dev/evals/runs/${runId}/stream`);
    if (!response.body) continue;
    let isDone = false;
    try {
      for await (const value of parseNdjson(response.body)) {
        const line = streamLineSchema.safeParse(value);
        // Heartbeats and lines a newer server adds are not ours to judge.
        if (!line.success) continue;
        if (line.data.type === "result") onResult(line.data.result);
        else if (line.data.run.status !== "running") isDone = true;
      }
    } catch (error) {
      if (signal.aborted) throw error;
    }
    if (isDone) break;
  }
  const { run, results } = await client.request("GET", `/dev/evals/runs/${encodeURIComponent(runId)}`, runAnswerSchema);
  if (run.status === "running") throw new AppError("unavailable", `the stream of run ${runId} kept breaking off`);
  return { run, results };
}
