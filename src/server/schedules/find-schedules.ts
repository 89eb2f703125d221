// GET /<slug>/v1/schedules: the active version's schedules with their state — paused, when each
// fires next, and its last run with the task session it started.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import { nextCronRun } from "@/agents/sdk/cron";

export type ScheduleSummary = {
  name: string;
  cron: string | null;
  mode: "markdown" | "run";
  paused: boolean;
  nextRunAt: string | null;
  lastRun: { sessionId: string | null; firedAt: string; dueAt: string; missed: number; manual: boolean } | null;
};

export async function findSchedules(options: {
  db: PrismaClient;
  agentId: string;
  now?: Date;
}): Promise<ScheduleSummary[]> {
  const { db, agentId, now = new Date() } = options;
  const agent = await db.agent.findUnique({
    where: { id: agentId },
    select: { activeVersion: { select: { manifest: true } } },
  });
  const schedules = (agent?.activeVersion?.manifest as AgentManifest | null)?.schedules ?? [];
  const [states, firings] = await Promise.all([
    db.scheduleState.findMany({ where: { agentId }, select: { name: true, paused: true } }),
    db.scheduleFiring.findMany({
      where: { agentId },
      orderBy: { id: "desc" },
      distinct: ["name"],
      select: { name: true, sessionId: true, firedAt: true, dueAt: true, missed: true, manual: true },
    }),
  ]);
  return schedules.map((schedule) => {
    const paused = states.find((state) => state.name === schedule.name)?.paused ?? false;
    const last = firings.find((firing) => firing.name === schedule.name);
    const next = schedule.cron && !paused ? nextCronRun(schedule.cron, now) : undefined;
    return {
      name: schedule.name,
      cron: schedule.cron ?? null,
      mode: schedule.mode,
      paused,
      nextRunAt: next?.toISOString() ?? null,
      lastRun: last
        ? {
            sessionId: last.sessionId,
            firedAt: last.firedAt.toISOString(),
            dueAt: last.dueAt.toISOString(),
            missed: last.missed,
            manual: last.manual,
          }
        : null,
    };
  });
}
