// ctx.artifacts.list: the agent's records, newest-updated first, by kind and session.
import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import type { ArtifactRecord } from "@/agents/sdk/types";
import { poolOf } from "@/server/db";
import { parseInput } from "@/server/validation/parse-input";
import { type ArtifactRow, artifactColumns, toArtifactRecord } from "./tag-artifact";

const filterSchema = z.object({
  kind: z.string().optional(),
  sessionId: z.string().optional(),
  limit: z.number().int().min(1).max(500).default(100),
});

export async function listArtifacts(db: PrismaClient, agentId: string, params: unknown): Promise<ArtifactRecord[]> {
  const filter = parseInput(filterSchema, params ?? {}, "artifacts.list");
  const { rows } = await poolOf(db).query<ArtifactRow>(
    `SELECT ${artifactColumns} FROM artifacts
     WHERE "agentId" = $1 AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR "sessionId" = $3)
     ORDER BY "updatedAt" DESC, kind, key LIMIT $4`,
    [agentId, filter.kind ?? null, filter.sessionId ?? null, filter.limit],
  );
  return rows.map(toArtifactRecord);
}
