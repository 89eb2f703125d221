// What the scheduler must do at `now`, as plain data: for each schedule, the due times since the
// last one handled. Several missed due times (everything was down) fold into ONE firing of the
// latest, which says how many it stands for; a paused schedule skips its due times silently, so
// resuming does not fire a backlog. Also the next time anything is due, to sleep until.
import { nextCronRun } from "@/agents/sdk/cron";

export type ScheduleSpec = { name: string; cron: string };
export type ScheduleStateRow = { name: string; paused: boolean; lastDueAt: Date };

export type DuePlan = {
  fire: { name: string; dueAt: Date; missed: number }[];
  /** New lastDueAt per schedule (fired, skipped while paused, or first seen). */
  advance: { name: string; lastDueAt: Date }[];
  nextDueAt?: Date;
};

// A schedule that was down for a year still costs a bounded walk.
const maxWalk = 10_000;

export function dueFirings(schedules: ScheduleSpec[], states: ScheduleStateRow[], now: Date): DuePlan {
  const plan: DuePlan = { fire: [], advance: [] };
  for (const schedule of schedules) {
    const state = states.find((candidate) => candidate.name === schedule.name);
    // First seen: it starts now; nothing before counts as missed.
    const last = state?.lastDueAt ?? now;
    if (!state) plan.advance.push({ name: schedule.name, lastDueAt: now });
    let latest: Date | undefined;
    let count = 0;
    for (
      let due = nextCronRun(schedule.cron, last);
      due && due <= now && count < maxWalk;
      due = nextCronRun(schedule.cron, due)
    ) {
      latest = due;
      count++;
    }
    if (latest) {
      if (!state?.paused) plan.fire.push({ name: schedule.name, dueAt: latest, missed: count - 1 });
      plan.advance.push({ name: schedule.name, lastDueAt: latest });
    }
    const next = nextCronRun(schedule.cron, latest && latest > last ? latest : last > now ? last : now);
    if (next && (!plan.nextDueAt || next < plan.nextDueAt)) plan.nextDueAt = next;
  }
  return plan;
}
