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

export const artifactListSchema = z.object({
  ok: z.literal(true),
  artifacts: z.array(artifactRecordSchema),
  nextCursor: z.string().nullable(),
});
export type ArtifactList = z.infer<typeof artifactListSchema>;

export const artifactAnswerSchema = z.object({ ok: z.literal(true), artifact: artifactRecordSchema });

export const artifactQuerySchema = z.object({ download: z.enum(["1", "true"]).optional() });
