// ctx.artifacts.tag and the model's tag_artifact (docs/agent-folders.md, "Artifacts"): creates or
// updates the agent's record for (kind, key), past the registry's `max` lets the oldest-updated
// records go, and appends `artifact.tagged` to the record's session. The kind rules and the
// kind's schema were applied in the sandbox (resolveArtifactTag); `data` arrives parsed.
import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { ArtifactRecord } from "@/agents/sdk/types";
import { artifactsChannel } from "@/server/channels";
import { pgTransaction } from "@/server/db";
import { appendEvents } from "@/server/events/append-events";
import { AppError } from "@/server/errors";
import { parseInput } from "@/server/validation/parse-input";

const name = z.string().min(1).max(200);
export const artifactTagSchema = z.object({
  kind: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "kind names are letters, digits, _ . - (at most 64)"),
  key: name,
  title: z.string().max(500).optional(),
  data: z.json().optional(),
  sessionId: z.string().optional(),
  turnId: z.string().optional(),
  max: z.number().int().positive().max(1_000_000).default(1000),
});

/** A record as agent code and the API see it. */
export type ArtifactRow = {
  kind: string;
  key: string;
  title: string | null;
  data: unknown;
  sessionId: string | null;
  turnId: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The stream's cursor (bigint, as text). */
  seq: string;
};

export function toArtifactRecord(row: ArtifactRow): ArtifactRecord {
  return {
    kind: row.kind,
    key: row.key,
    ...(row.title ? { title: row.title } : {}),
    data: (row.data ?? null) as ArtifactRecord["data"],
    ...(row.sessionId ? { sessionId: row.sessionId } : {}),
    ...(row.turnId ? { turnId: row.turnId } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// Timestamps are UTC in "timestamp without time zone" columns (Prisma's convention).
export const artifactColumns = `kind, key, title, data, "sessionId", "turnId", "createdAt" AT TIME ZONE 'UTC' AS "createdAt",
  "updatedAt" AT TIME ZONE 'UTC' AS "updatedAt", seq::text AS seq`;

export async function tagArtifact(db: PrismaClient, agentId: string, params: unknown): Promise<ArtifactRecord> {
  const input = parseInput(artifactTagSchema, params, "artifacts.tag");
  // A session of another agent (or none at all) is not this record's.
  const session = input.sessionId
    ? await db.session.findFirst({ where: { id: input.sessionId, agentId }, select: { id: true } })
    : null;
  if (input.sessionId && !session)
    throw new AppError("not_found", `artifacts.tag: no session ${input.sessionId} of this agent`);
  const row = await pgTransaction(db, async (client) => {
    // One writer per agent at a time, so `seq` (taken after the lock) orders writes as they
    // commit: the live stream reads past its cursor and never skips a slower transaction's record.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('artifacts:' || $1))`, [agentId]);
    const { rows } = await client.query<ArtifactRow>(
      `INSERT INTO artifacts ("agentId", kind, key, title, data, "sessionId", "turnId", "updatedAt")
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, now() AT TIME ZONE 'UTC')
       ON CONFLICT ("agentId", kind, key) DO UPDATE SET title = EXCLUDED.title, data = EXCLUDED.data,
         "sessionId" = coalesce(EXCLUDED."sessionId", artifacts."sessionId"),
         "turnId" = coalesce(EXCLUDED."turnId", artifacts."turnId"), "updatedAt" = EXCLUDED."updatedAt",
         seq = nextval(pg_get_serial_sequence('artifacts', 'seq'))
       RETURNING ${artifactColumns}`,
      [
        agentId,
        input.kind,
        input.key,
        input.title ?? null,
        JSON.stringify(input.data ?? null),
        session?.id ?? null,
        session ? (input.turnId ?? null) : null,
      ],
    );
    // The cap: the oldest-updated records past `max` go (the one just written is the newest).
    await client.query(
      `DELETE FROM artifacts WHERE "agentId" = $1 AND (kind, key) IN (
         SELECT kind, key FROM artifacts WHERE "agentId" = $1 ORDER BY "updatedAt" DESC, kind, key OFFSET $2)`,
      [agentId, input.max],
    );
    await client.query("SELECT pg_notify($1, $2)", [artifactsChannel.name, agentId]);
    return rows[0]!;
  });
  const record = toArtifactRecord(row);
  if (record.sessionId)
    await appendEvents({
      db,
      sessionId: record.sessionId,
      events: [
        {
          type: "artifact.tagged",
          ...(record.turnId ? { turnId: record.turnId } : {}),
          data: {
            kind: record.kind,
            key: record.key,
            ...(record.title ? { title: record.title } : {}),
            data: record.data,
          },
        },
      ],
    });
  return record;
}
