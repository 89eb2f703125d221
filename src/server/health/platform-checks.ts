// The real checks behind GET /v1/health: Postgres answers a query, Restate's admin API is
// healthy, the worker endpoint answers over HTTP/2.
import type { PrismaClient } from "@prisma/client";
import { env, type Env } from "@/env";
import { db } from "@/server/db";
import { createRestateRuntime } from "@/server/durable/restate-runtime";
import { isWorkerHealthy } from "@/server/worker/health";
import type { HealthChecks } from "./get-health";

export function platformChecks({
  config = env(),
  database = () => db(),
}: {
  config?: Env;
  database?: () => PrismaClient;
} = {}): HealthChecks {
  const runtime = createRestateRuntime({
    ingressUrl: config.restateIngressUrl,
    adminUrl: config.restateAdminUrl,
  });
  return {
    db: async () => {
      try {
        await database().$queryRaw`select 1`;
      } catch (error) {
        // Prisma's message opens with lines about the invocation; the cause is the last one.
        throw new Error((error as Error).message.trim().split("\n").at(-1));
      }
      return true;
    },
    restate: () => runtime.isHealthy(),
    worker: () => isWorkerHealthy(config.workerUrl),
  };
}
