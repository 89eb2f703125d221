// GET /<slug>/v1/logs: its query and answer (docs/api.md, "Logs").
import { z } from "zod";
import { queryInteger, storableString } from "@/server/validation/schema";
import { logLevels, logSources } from "@/shared/log-lines";

export const findLogsQuerySchema = z.object({
  /** Lines at or after this time (ISO 8601), oldest first; without it, the newest `limit`. */
  since: z.iso.datetime({ offset: true }).optional(),
  /** This level and above. */
  level: z.enum(logLevels).optional(),
  session: storableString().max(200).optional(),
  source: z.enum(logSources).optional(),
  /** The `nextCursor` of the previous answer: only lines written since. */
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, "cursor must be a nextCursor this API gave")
    .optional(),
  limit: queryInteger({ min: 1, max: 1000, default: 200 }),
});
export type FindLogsQuery = z.infer<typeof findLogsQuerySchema>;

export const logLineSchema = z.object({
  id: z.string(),
  at: z.string(),
  level: z.enum(logLevels),
  source: z.enum(logSources),
  name: z.string().optional(),
  sessionId: z.string().optional(),
  turnId: z.string().optional(),
  message: z.string(),
});
export type LogLine = z.infer<typeof logLineSchema>;

export const logListSchema = z.object({
  ok: z.literal(true),
  lines: z.array(logLineSchema),
  /** Poll again with it for what comes next (never null: an agent with no lines yet answers "0"). */
  nextCursor: z.string(),
});
export type LogList = z.infer<typeof logListSchema>;
