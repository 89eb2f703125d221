// The answers of /<slug>/v1/schedules… and hand dispatch (docs/schedules.md), as the wire carries them.
import { z } from "zod";

export const scheduleSummarySchema = z.object({
  name: z.string(),
  cron: z.string().nullable(),
  mode: z.enum(["markdown", "run"]),
  paused: z.boolean(),
  nextRunAt: z.string().nullable(),
  lastRun: z
    .object({
      sessionId: z.string().nullable(),
      firedAt: z.string(),
      dueAt: z.string(),
      missed: z.number().int(),
      manual: z.boolean(),
    })
    .nullable(),
});

export const scheduleListSchema = z.object({ ok: z.literal(true), schedules: z.array(scheduleSummarySchema) });
export const schedulePausedSchema = z.object({ ok: z.literal(true), name: z.string(), paused: z.boolean() });

/** A fired schedule: its task session, or `ran` for a schedule with code. */
export const scheduleFiredSchema = z.union([
  z.object({ ok: z.literal(true), sessionId: z.string() }),
  z.object({ ok: z.literal(true), ran: z.literal(true) }),
]);
