// The newest entries of an agent's memory journal (memory/journal.jsonl, deployment scope), read
// from the end of the file: a journal may hold up to 8 MiB, and the dashboard wants its last lines.
import type { PrismaClient } from "@prisma/client";
import { memoryJournalPath } from "@/agents/sdk/memory";
import { poolOf } from "@/server/db";
import { fileLimits } from "./files";
import { type MemoryEntry, type MemoryJournal, memoryEntrySchema } from "./schema";

/** The first read takes this many bytes from the end, and four times more each time it falls short. */
const firstWindowBytes = 256 * 1024;
const newline = 0x0a;

export async function readMemoryJournal(options: {
  db: PrismaClient;
  agentId: string;
  limit: number;
}): Promise<MemoryJournal> {
  const { db, agentId, limit } = options;
  const pool = poolOf(db);
  for (let window = firstWindowBytes; ; window = Math.min(window * 4, fileLimits.fileBytes)) {
    const { rows } = await pool.query<{ size: number; tail: Buffer }>(
      `SELECT size, substring(content FROM greatest(size - $3::int + 1, 1)) AS tail
       FROM agent_files WHERE "agentId" = $1 AND "scopeKey" = '' AND path = $2`,
      [agentId, memoryJournalPath, window],
    );
    const row = rows[0];
    if (!row) return { entries: [], skipped: 0, hasJournal: false };
    const isWhole = row.tail.length >= row.size;
    const found = newestEntries(row.tail, { limit, isWhole });
    if (found.entries.length >= limit || isWhole) return { ...found, hasJournal: true };
  }
}

/** Up to `limit` entries from the end of `tail`; unless it is the whole file, its first line is
 * cut and left out. Blank lines are neither entries nor skipped. */
export function newestEntries(tail: Buffer, options: { limit: number; isWhole: boolean }) {
  const entries: MemoryEntry[] = [];
  let skipped = 0;
  // Split on the newline byte before decoding: a window may start inside a multi-byte character.
  let end = tail.length;
  while (entries.length < options.limit && end > 0) {
    const start = tail.lastIndexOf(newline, end - 1) + 1;
    if (start === 0 && !options.isWhole) break;
    const line = tail.subarray(start, end).toString("utf8").trim();
    end = start - 1;
    if (line === "") continue;
    const entry = parseEntry(line);
    if (entry) entries.push(entry);
    else skipped++;
  }
  return { entries, skipped };
}

function parseEntry(line: string): MemoryEntry | undefined {
  try {
    const parsed = memoryEntrySchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
