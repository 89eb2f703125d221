// PATCH /<slug>/v1/schedules/:name { paused }: a paused schedule's due times pass without firing,
// and resuming does not fire the ones it skipped.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import { AppError } from "@/server/errors";

export async function setSchedulePaused(options: {
  db: PrismaClient;
  agentId: string;
  name: string;
  paused: boolean;
  now?: Date;
}): Promise<{ ok: true; name: string; paused: boolean }> {
  const { db, agentId, name, paused, now = new Date() } = options;
  const agent = await db.agent.findUnique({
    where: { id: agentId },
    select: { activeVersion: { select: { manifest: true } } },
  });
  const exists = (agent?.activeVersion?.manifest as AgentManifest | null)?.schedules.some(
    (schedule) => schedule.name === name,
  );
  if (!exists) throw new AppError("not_found", `no schedule named ${name}`);
  await db.scheduleState.upsert({
    where: { agentId_name: { agentId, name } },
    create: { agentId, name, paused, lastDueAt: now },
    update: { paused },
  });
  return { ok: true, name, paused };
}
