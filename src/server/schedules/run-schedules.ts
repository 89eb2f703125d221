// The scheduler's work for one agent at `now` (src/server/durable/scheduler-object.ts drives it): the
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

/** A schedule with `run` to execute in the agent's sandbox (it starts its own work). */
export type CodeRun = { name: string; file: string; versionId: string; bundlePath: string; appAuth: Principal };

export type ScheduleRun = { turns: TurnRequest[]; runs: CodeRun[]; nextDueAt?: string; isGone: boolean };

type Firing = { name: string; dueAt: Date; missed: number; manual?: boolean };
type AgentRow = {
  id: string;
  slug: string;
  activeVersionId: string | null;
  manifest: AgentManifest | null;
  bundlePath: string | null;
};

/** The principal a schedule's sessions belong to (`appAuth`, docs/schedules.md, "What fires"). */
export function scheduleAuth(slug: string, name: string): Principal {
  return { kind: "app", id: `schedule:${slug}/${name}`, attributes: { agent: slug, schedule: name } };
}

export async function runSchedules(db: PrismaClient, agentId: string, now: Date): Promise<ScheduleRun> {
  const agent = await loadAgent(db, agentId);
  if (!agent?.activeVersionId || !agent.manifest) return { turns: [], runs: [], isGone: !agent };
  const schedules = agent.manifest.schedules.flatMap((s) =>
    s.cron && (s.prompt || (s.mode === "run" && agent.bundlePath))
      ? [{ name: s.name, cron: s.cron, prompt: s.prompt, file: s.file, mode: s.mode }]
      : [],
  );
  const { rows: states } = await poolOf(db).query<ScheduleStateRow>(
    `SELECT name, paused, "lastDueAt" AT TIME ZONE 'UTC' AS "lastDueAt" FROM schedule_states WHERE "agentId" = $1`,
    [agentId],
  );
  const plan = dueFirings(schedules, states, now);
  const turns: TurnRequest[] = [];
  const runs: CodeRun[] = [];
  for (const firing of plan.fire) {
    const schedule = schedules.find((s) => s.name === firing.name)!;
    const started = await fire(db, agent, firing, schedule);
    if (started && "turnId" in started) turns.push(started);
    else if (started) runs.push(started);
  }
  for (const { name, lastDueAt } of plan.advance) {
    await poolOf(db).query(
      `INSERT INTO schedule_states ("agentId", name, "lastDueAt", "updatedAt") VALUES ($1, $2, $3::timestamptz AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
       ON CONFLICT ("agentId", name) DO UPDATE SET "lastDueAt" = greatest(schedule_states."lastDueAt", excluded."lastDueAt"), "updatedAt" = excluded."updatedAt"`,
      [agentId, name, lastDueAt.toISOString()],
    );
  }
  return { turns, runs, isGone: false, ...(plan.nextDueAt ? { nextDueAt: plan.nextDueAt.toISOString() } : {}) };
}

/** Hand dispatch (`POST …/dev/schedules/:name`): one firing now, paused or not. */
export async function fireScheduleNow(
  db: PrismaClient,
  agentId: string,
  name: string,
  now: Date,
): Promise<TurnRequest | CodeRun | { error: string }> {
  const agent = await loadAgent(db, agentId);
  const schedule = agent?.manifest?.schedules.find((s) => s.name === name);
  if (!agent || !schedule) return { error: `no schedule named ${name}` };
  const started = await fire(db, agent, { name, dueAt: now, missed: 0, manual: true }, schedule);
  return started ?? { error: `${name} was just fired` };
}

async function fire(
  db: PrismaClient,
  agent: AgentRow,
  firing: Firing,
  schedule: { file: string; prompt?: string; mode: string },
): Promise<TurnRequest | CodeRun | undefined> {
  if (schedule.mode === "run" || !schedule.prompt) return fireCode(db, agent, firing, schedule.file);
  const prompt = schedule.prompt;
  const sessionId = newSessionId();
  const turnId = newTurnId();
  const lateBy =
    firing.missed > 0
      ? ` (late: ${firing.missed} earlier due time${firing.missed === 1 ? "" : "s"} missed while the platform was down)`
      : "";
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

/** A `run` schedule's firing is recorded (once per due time); its code runs next, in the sandbox. */
async function fireCode(db: PrismaClient, agent: AgentRow, firing: Firing, file: string): Promise<CodeRun | undefined> {
  if (!agent.bundlePath) return undefined;
  const { rowCount } = await poolOf(db).query(
    `INSERT INTO schedule_firings ("agentId", name, "dueAt", missed, manual, "firedAt")
     VALUES ($1, $2, $3::timestamptz AT TIME ZONE 'UTC', $4, $5, now() AT TIME ZONE 'UTC') ON CONFLICT ("agentId", name, "dueAt") DO NOTHING`,
    [agent.id, firing.name, firing.dueAt.toISOString(), firing.missed, firing.manual ?? false],
  );
  if (!rowCount) return undefined;
  return {
    name: firing.name,
    file,
    versionId: agent.activeVersionId!,
    bundlePath: agent.bundlePath,
    appAuth: scheduleAuth(agent.slug, firing.name),
  };
}

async function loadAgent(db: PrismaClient, agentId: string): Promise<AgentRow | undefined> {
  const { rows } = await poolOf(db).query<AgentRow>(
    `SELECT a.id, a.slug, a."activeVersionId", v.manifest, v."bundlePath" FROM "Agent" a LEFT JOIN "AgentVersion" v ON v.id = a."activeVersionId" WHERE a.id = $1`,
    [agentId],
  );
  return rows[0];
}
