// The artifacts API's input and answers (docs/api.md, "Artifacts").
import { z } from "zod";
import { queryInteger, storableString } from "@/server/validation/schema";

export const artifactRecordSchema = z.object({
  kind: z.string(),
  key: z.string(),
  title: z.string().optional(),
  data: z.json(),
  sessionId: z.string().optional(),
  turnId: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const listArtifactsQuerySchema = z.object({
  kind: storableString().max(64).optional(),
  session: storableString().max(200).optional(),
  /** Records whose key or title holds this text (case ignored). */
  q: storableString().max(200).optional(),
  /** Records updated at or after this time (ISO 8601). */
  updatedSince: z.iso.datetime({ offset: true }).optional(),
  limit: queryInteger({ min: 1, max: 100, default: 50 }),
  /** The `nextCursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,1000}$/, "cursor must be a nextCursor this API gave")
    .optional(),
});
export type ListArtifactsQuery = z.infer<typeof listArtifactsQuerySchema>;

export const streamArtifactsQuerySchema = z.object({
  kind: storableString().max(64).optional(),
  session: storableString().max(200).optional(),
  /** The `cursor` of the last line read: the stream goes on from there. */
  after: z
    .string()
    .regex(/^\d{1,19}$/, "after must be a cursor this stream gave")
    .optional(),
  /** Records updated at or after this time, then live; without it or `after`, only what comes next. */
  updatedSince: z.iso.datetime({ offset: true }).optional(),
  heartbeat: z.enum(["0", "1"]).optional(),
});

export const artifactListSchema = z.object({
  ok: z.literal(true),
  artifacts: z.array(artifactRecordSchema),
  nextCursor: z.string().nullable(),
});
export type ArtifactList = z.infer<typeof artifactListSchema>;

export const artifactAnswerSchema = z.object({ ok: z.literal(true), artifact: artifactRecordSchema });

export const artifactQuerySchema = z.object({ download: z.enum(["1", "true"]).optional() });
