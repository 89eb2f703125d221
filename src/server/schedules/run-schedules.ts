// The scheduler's work for one agent at `now` (src/server/durable/services.ts drives it): the
// active version's markdown schedules that are due start one task session each, in one
// transaction per firing. A firing is unique per (agent, schedule, due time), so however many
// ticks race, each due minute fires once. Returns the turns to queue and when to look again.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import type { Principal } from "@/agents/sdk/types";
import { pgTransaction, poolOf } from "@/server/db";
import type { TurnRequest } from "@/server/durable/runtime";
import { recordSessionStart } from "@/server/sessions/start-session";
import { newDeliveryId, newSessionId, newTurnId } from "@/server/sessions/session-urls";
import { dueFirings, type ScheduleStateRow } from "./due-firings";

export type ScheduleRun = { turns: TurnRequest[]; nextDueAt?: string; isGone: boolean };

type Firing = { name: string; dueAt: Date; missed: number; manual?: boolean };
type AgentRow = { id: string; slug: string; activeVersionId: string | null; manifest: AgentManifest | null };

/** The principal a schedule's sessions belong to (`appAuth`, spec §11.2). */
export function scheduleAuth(slug: string, name: string): Principal {
  return { kind: "app", id: `schedule:${slug}/${name}`, attributes: { agent: slug, schedule: name } };
}

export async function runSchedules(db: PrismaClient, agentId: string, now: Date): Promise<ScheduleRun> {
  const agent = await loadAgent(db, agentId);
  if (!agent?.activeVersionId || !agent.manifest) return { turns: [], isGone: !agent };
  const schedules = agent.manifest.schedules.flatMap((s) => (s.mode === "markdown" && s.cron && s.prompt ? [{ name: s.name, cron: s.cron, prompt: s.prompt }] : []));
  const { rows: states } = await poolOf(db).query<ScheduleStateRow>(
    `SELECT name, paused, "lastDueAt" AT TIME ZONE 'UTC' AS "lastDueAt" FROM schedule_states WHERE "agentId" = $1`,
    [agentId],
  );
  const plan = dueFirings(schedules, states, now);
  const turns: TurnRequest[] = [];
  for (const firing of plan.fire) {
    const prompt = schedules.find((s) => s.name === firing.name)!.prompt;
    const turn = await fire(db, agent, firing, prompt);
    if (turn) turns.push(turn);
  }
  for (const { name, lastDueAt } of plan.advance) {
    await poolOf(db).query(
      `INSERT INTO schedule_states ("agentId", name, "lastDueAt", "updatedAt") VALUES ($1, $2, $3::timestamptz AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
       ON CONFLICT ("agentId", name) DO UPDATE SET "lastDueAt" = greatest(schedule_states."lastDueAt", excluded."lastDueAt"), "updatedAt" = excluded."updatedAt"`,
      [agentId, name, lastDueAt.toISOString()],
    );
  }
  return { turns, isGone: false, ...(plan.nextDueAt ? { nextDueAt: plan.nextDueAt.toISOString() } : {}) };
}

/** Hand dispatch (`POST …/dev/schedules/:name`): one firing now, paused or not. */
export async function fireScheduleNow(db: PrismaClient, agentId: string, name: string, now: Date): Promise<TurnRequest | { error: string }> {
  const agent = await loadAgent(db, agentId);
  const schedule = agent?.manifest?.schedules.find((s) => s.name === name);
  if (!agent || !schedule) return { error: `no schedule named ${name}` };
  if (schedule.mode !== "markdown" || !schedule.prompt) return { error: `${name} has a run() function; only markdown schedules run on this platform yet` };
  const turn = await fire(db, agent, { name, dueAt: now, missed: 0, manual: true }, schedule.prompt);
  return turn ?? { error: `${name} was just fired for this minute` };
}

async function fire(db: PrismaClient, agent: AgentRow, firing: Firing, prompt: string): Promise<TurnRequest | undefined> {
  const sessionId = newSessionId();
  const turnId = newTurnId();
  const lateBy = firing.missed > 0 ? ` (late: ${firing.missed} earlier due time${firing.missed === 1 ? "" : "s"} missed while the platform was down)` : "";
  const title = `${firing.manual ? "Run by hand" : "Schedule"}: ${firing.name}${lateBy}`;
  return pgTransaction(db, async (client) => {
    const { rowCount } = await client.query(
      `INSERT INTO schedule_firings ("agentId", name, "dueAt", missed, manual, "sessionId", "firedAt")
       VALUES ($1, $2, $3::timestamptz AT TIME ZONE 'UTC', $4, $5, $6, now() AT TIME ZONE 'UTC') ON CONFLICT ("agentId", name, "dueAt") DO NOTHING`,
      [agent.id, firing.name, firing.dueAt.toISOString(), firing.missed, firing.manual ?? false, sessionId],
    );
    if (!rowCount) return undefined;
    await recordSessionStart(client, {
      sessionId,
      turnId,
      agentId: agent.id,
      versionId: agent.activeVersionId!,
      principal: scheduleAuth(agent.slug, firing.name),
      channelId: "schedule",
      mode: "task",
      title,
      continuationHash: null,
      message: prompt,
      deliveryId: newDeliveryId(),
    });
    return { sessionId, turnId, message: prompt };
  });
}

async function loadAgent(db: PrismaClient, agentId: string): Promise<AgentRow | undefined> {
  const { rows } = await poolOf(db).query<AgentRow>(
    `SELECT a.id, a.slug, a."activeVersionId", v.manifest FROM "Agent" a LEFT JOIN "AgentVersion" v ON v.id = a."activeVersionId" WHERE a.id = $1`,
    [agentId],
  );
  return rows[0];
}
