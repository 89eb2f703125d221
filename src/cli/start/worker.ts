// The `worker` process: the Restate service endpoint, restarted when it dies, registered with
// Restate once it answers its health check.
import type { DurableRuntime } from "@/server/durable/runtime";
import { isWorkerHealthy } from "@/server/durable/worker-health";
import type { Log } from "./child";
import { nodeWithTsx, projectRoot } from "./project";
import { superviseChild, type SupervisedChild } from "./supervised";
import { waitFor } from "./wait";

export async function startWorker(options: {
  workerUrl: string;
  env: NodeJS.ProcessEnv;
  runtime: DurableRuntime;
  log: Log;
}): Promise<SupervisedChild> {
  const { workerUrl, env, runtime, log } = options;
  const worker = superviseChild(
    { name: "worker", ...nodeWithTsx("src/server/durable/worker-main.ts"), cwd: projectRoot, env },
    log,
  );
  await waitFor("the worker to answer its health check", () => isWorkerHealthy(workerUrl), {
    timeoutMs: 30_000,
  });
  await runtime.registerWorker(workerUrl);
  return worker;
}
