// The answers of /<slug>/v1/session/:id/reminders…, as the wire carries them.
import { z } from "zod";

export const reminderSummarySchema = z.object({ id: z.string(), fireAt: z.string(), prompt: z.string() });
export const reminderListSchema = z.object({ ok: z.literal(true), reminders: z.array(reminderSummarySchema) });
export const reminderCancelledSchema = z.object({ ok: z.literal(true), id: z.string(), cancelled: z.literal(true) });
