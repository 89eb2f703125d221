// The web process's shared services, created once per process on first use.
import { env, secretKey } from "@/env";
import { db } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import type { DurableRuntime } from "@/server/durable/runtime";
import { createEventHub, type EventHub } from "@/server/events/event-hub";
import { processCredentialCache, type CredentialCache } from "@/server/auth/credential-cache";
import { AppError } from "@/server/errors";

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

let key: Buffer | undefined;

/** The key agent secrets are encrypted with (read or generated on first use). */
export function agentSecretKey(): Buffer {
  key ??= secretKey(env());
  return key;
}

export { db };
