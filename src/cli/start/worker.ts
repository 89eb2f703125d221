// The `worker` process: the Restate service endpoint, restarted when it dies, registered with
// Restate once it answers its health check.
import type { DurableRuntime } from "@/server/durable/runtime";
import { isWorkerHealthy } from "@/server/worker/health";
import type { Log } from "./child";
import { nodeWithTsx, projectRoot } from "./project";
import { superviseChild, type SupervisedChild, type Supervision } from "./supervised";
import { waitFor } from "./wait";

export async function startWorker(options: {
  workerUrl: string;
  env: NodeJS.ProcessEnv;
  /** Absent: not registered here (cluster mode registers the workers' one address instead). */
  runtime?: DurableRuntime;
  log: Log;
  supervision?: Supervision;
  name?: string;
}): Promise<SupervisedChild> {
  const { workerUrl, env, runtime, log, supervision, name = "worker" } = options;
  // A restarted worker serves the same services at the same URL: Restate's registration of it
  // still holds, so it is registered once.
  const worker = superviseChild({ name, ...nodeWithTsx("src/server/worker/main.ts"), cwd: projectRoot, env }, log, {
    ...supervision,
    waitUntilReady: () =>
      waitFor("the worker to answer its health check", () => isWorkerHealthy(workerUrl), { timeoutMs: 30_000 }),
  });
  await worker.ready;
  await runtime?.registerWorker(workerUrl);
  return worker;
}
