// The worker's settings as the environment gives them (src/env.ts): read by the worker process and
// by the worker `agentfold eval` runs in its own process on a throwaway stack.
import type { PrismaClient } from "@prisma/client";
import type { Env } from "@/env";
import { defaultRetryBound } from "@/server/durable/retry-bound";
import type { DurableRuntime } from "@/server/durable/runtime";
import { modelSettings } from "@/server/models";
import type { WorkerConfig } from "./endpoint";

export function workerConfigFromEnv(
  config: Env,
  parts: { db: PrismaClient; dataDir: string; runtime: DurableRuntime },
): WorkerConfig {
  return {
    ...parts,
    models: modelSettings(config),
    defaultModel: config.AGENTFOLD_DEFAULT_MODEL,
    approvalTimeoutMs: config.AGENTFOLD_APPROVAL_TIMEOUT_SECONDS * 1000,
    hookTimeoutMs: config.AGENTFOLD_HOOK_TIMEOUT_SECONDS * 1000,
    retry: {
      attempts: config.AGENTFOLD_TURN_RETRY_ATTEMPTS,
      initialIntervalMs: Math.min(
        defaultRetryBound.initialIntervalMs,
        config.AGENTFOLD_TURN_RETRY_MAX_INTERVAL_SECONDS * 1000,
      ),
      maxIntervalMs: config.AGENTFOLD_TURN_RETRY_MAX_INTERVAL_SECONDS * 1000,
    },
  };
}
