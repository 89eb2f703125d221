// GET /<slug>/v1/artifacts and /<slug>/v1/artifacts/:kind/:key: an agent's records, newest
// updated first, a page at a time (the cursor is the last record's place in that order).
import type { PrismaClient } from "@prisma/client";
import type { ArtifactRecord } from "@/agents/sdk/types";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import type { ListArtifactsQuery } from "./schema";
import { type ArtifactRow, artifactColumns, toArtifactRecord } from "./tag-artifact";

type Place = { updatedAt: string; kind: string; key: string };

function encodeCursor(place: Place): string {
  return Buffer.from(JSON.stringify(place)).toString("base64url");
}

function decodeCursor(cursor: string): Place {
  try {
    const place = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Place;
    if (typeof place.updatedAt === "string" && typeof place.kind === "string" && typeof place.key === "string")
      return place;
  } catch {
    // Fall through: not a cursor of ours.
  }
  throw new AppError("invalid_input", "cursor must be a nextCursor this API gave");
}

export async function findArtifacts(
  db: PrismaClient,
  agentId: string,
  query: ListArtifactsQuery,
): Promise<{ artifacts: ArtifactRecord[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const { rows } = await poolOf(db).query<ArtifactRow>(
    `SELECT ${artifactColumns} FROM artifacts
     WHERE "agentId" = $1 AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR "sessionId" = $3)
       AND ($4::timestamptz IS NULL OR "updatedAt" >= $4::timestamptz AT TIME ZONE 'UTC')
       AND ($5::timestamptz IS NULL OR ("updatedAt", kind, key) < ($5::timestamptz AT TIME ZONE 'UTC', $6, $7))
       AND ($9::text IS NULL OR strpos(lower(key || ' ' || coalesce(title, '')), lower($9)) > 0)
     ORDER BY "updatedAt" DESC, kind DESC, key DESC LIMIT $8`,
    [
      agentId,
      query.kind ?? null,
      query.session ?? null,
      query.updatedSince ?? null,
      after?.updatedAt ?? null,
      after?.kind ?? "",
      after?.key ?? "",
      query.limit + 1,
      query.q ?? null,
    ],
  );
  const page = rows.slice(0, query.limit).map(toArtifactRecord);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last
      ? encodeCursor({ updatedAt: last.updatedAt, kind: last.kind, key: last.key })
      : null;
  return { artifacts: page, nextCursor };
}

export async function findArtifact(
  db: PrismaClient,
  agentId: string,
  kind: string,
  key: string,
): Promise<ArtifactRecord> {
  const { rows } = await poolOf(db).query<ArtifactRow>(
    `SELECT ${artifactColumns} FROM artifacts WHERE "agentId" = $1 AND kind = $2 AND key = $3`,
    [agentId, kind, key],
  );
  if (!rows[0]) throw new AppError("not_found", `no artifact ${kind}/${key}`);
  return toArtifactRecord(rows[0]);
}
