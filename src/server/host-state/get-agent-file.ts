// One deployment file of an agent for the dashboard: its first 64 KiB as text, or word that it
// is binary; never its bytes.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import { normalizeFilePath } from "./file-paths";
import { type AgentFile, shownFileBytes } from "./schema";
import { quoted } from "./text";

export async function getAgentFile(options: { db: PrismaClient; agentId: string; path: string }): Promise<AgentFile> {
  const path = normalizeFilePath(options.path);
  const { rows } = await poolOf(options.db).query<{ size: number; updatedAt: Date; head: Buffer }>(
    // updatedAt is stored as UTC without a zone; AT TIME ZONE gives pg a moment, not a local time.
    `SELECT size, "updatedAt" AT TIME ZONE 'UTC' AS "updatedAt", substring(content FROM 1 FOR $3::int) AS head
     FROM agent_files WHERE "agentId" = $1 AND "scopeKey" = '' AND path = $2`,
    [options.agentId, path, shownFileBytes],
  );
  const row = rows[0];
  if (!row) throw new AppError("not_found", `no deployment file ${quoted(path)}`);
  const isTruncated = row.size > row.head.length;
  const text = textOf(row.head, isTruncated);
  return {
    path,
    size: row.size,
    updatedAt: row.updatedAt.toISOString(),
    text,
    isBinary: text === null,
    isTruncated,
  };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as UTF-8 text, or null when they are not text (a NUL, or not UTF-8). A cut head may
 * end inside a character: up to three trailing bytes are dropped before giving up. */
export function textOf(bytes: Buffer, isCut: boolean): string | null {
  if (bytes.includes(0)) return null;
  for (let drop = 0; drop <= (isCut ? Math.min(3, bytes.length) : 0); drop++) {
    try {
      return utf8.decode(bytes.subarray(0, bytes.length - drop));
    } catch {
      // Not UTF-8 up to here: try a shorter cut, or give up.
    }
  }
  return null;
}
