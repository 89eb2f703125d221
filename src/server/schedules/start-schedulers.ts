// Starts the schedule timer chain of every agent with an active version: at start-up (a chain
// that Restate already holds is replaced by an equal one) and after activating a version, so
// its schedules replace the old ones at once.
import type { PrismaClient } from "@prisma/client";
import type { DurableRuntime } from "@/server/durable/runtime";

export async function startSchedulers(options: {
  db: PrismaClient;
  runtime: DurableRuntime;
  agentIds?: string[];
}): Promise<number> {
  const { db, runtime } = options;
  const agents = await db.agent.findMany({
    where: { activeVersionId: { not: null }, ...(options.agentIds ? { id: { in: options.agentIds } } : {}) },
    select: { id: true },
  });
  for (const agent of agents) await runtime.startScheduler(agent.id);
  return agents.length;
}
