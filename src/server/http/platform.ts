// The web process's shared services, created once per process on first use.
import { env, secretKey } from "@/env";
import { db } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import type { DurableRuntime } from "@/server/durable/runtime";
import { createEventHub, type EventHub } from "@/server/events/event-hub";
import { processCredentialCache, type CredentialCache } from "@/server/auth/credential-cache";
import { AppError } from "@/server/errors";
import { type AgentLogWriter, createAgentLogWriter } from "@/server/logging/agent-logs";
import { processLogger } from "@/server/logging/logger";

let runtime: DurableRuntime | undefined;
let hub: Promise<EventHub> | undefined;

export function durableRuntime(): DurableRuntime {
  const config = env();
  runtime ??= createRestateRuntime({ ingressUrl: config.restateIngressUrl, adminUrl: config.restateAdminUrl });
  return runtime;
}

export function eventHub(): Promise<EventHub> {
  const url = env().DATABASE_URL;
  if (!url) throw new AppError("unavailable", "DATABASE_URL is not set");
  hub ??= createEventHub({ databaseUrl: url }).catch((error) => {
    hub = undefined;
    throw error;
  });
  return hub;
}

/** Tokens and agents kept between API requests (credential-cache.ts); one per process. */
export function credentialCache(): Promise<CredentialCache> | undefined {
  const url = env().DATABASE_URL;
  return url ? processCredentialCache(url) : undefined;
}

let logs: AgentLogWriter | undefined;

/** Agents' log lines written from this process (their channel routes' output and failures). */
export function agentLogs(): AgentLogWriter {
  const config = env();
  logs ??= createAgentLogWriter({
    db: db(),
    maxLinesPerAgent: config.AGENTFOLD_LOG_MAX_LINES,
    retentionDays: config.AGENTFOLD_LOG_RETENTION_DAYS,
    onError: (error) => processLogger().error({ err: error.message }, "could not store agent log lines"),
  });
  return logs;
}

let key: Buffer | undefined;

/** The key agent secrets are encrypted with (read or generated on first use). */
export function agentSecretKey(): Buffer {
  key ??= secretKey(env());
  return key;
}

export { db };
