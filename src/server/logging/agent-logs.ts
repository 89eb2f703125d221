// An agent's logs (docs/logs.md): what its code printed in a sandbox call and what the platform
// said about it, kept in Postgres for GET /<slug>/v1/logs. Lines are buffered and written in one
// statement per flush, off the turn path. Every flush takes the same lock before its ids are
// drawn, so ids order lines as they commit and a reader polling past its cursor skips none. Each
// agent keeps at most `maxLinesPerAgent` lines and none older than `retentionDays`.
import type { PrismaClient } from "@prisma/client";
import { pgTransaction, poolOf } from "@/server/db";
import type { LogLevel, LogSource } from "@/shared/log-lines";

export type { LogLevel, LogSource };

export type AgentLogLine = {
  agentId: string;
  level: LogLevel;
  source: LogSource;
  /** The module the line came from (`tools/refund.ts`), or what the platform was doing. */
  name?: string;
  sessionId?: string;
  turnId?: string;
  message: string;
  at?: Date;
};

export type AgentLogWriter = {
  write: (line: AgentLogLine) => void;
  /** Writes what is buffered now (tests, shutdown). */
  flush: () => Promise<void>;
  close: () => Promise<void>;
};

export type AgentLogWriterOptions = {
  db: PrismaClient;
  flushMs?: number;
  /** Past this many buffered lines new ones are dropped (and counted) until a flush catches up. */
  maxBuffered?: number;
  maxLinesPerAgent?: number;
  retentionDays?: number;
  /** How often an agent's cap and the age limit are applied. */
  trimEveryMs?: number;
  clock?: () => Date;
  onError?: (error: Error) => void;
};

/** A stored message's most characters: longer ones are cut with a note. */
export const maxMessageChars = 8_000;

export function createAgentLogWriter(options: AgentLogWriterOptions): AgentLogWriter {
  const {
    db,
    flushMs = 200,
    maxBuffered = 10_000,
    maxLinesPerAgent = 20_000,
    retentionDays = 7,
    trimEveryMs = 10_000,
    clock = () => new Date(),
    onError = () => {},
  } = options;
  let buffer: AgentLogLine[] = [];
  let dropped = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  const lastTrim = new Map<string, number>();
  let lastAgeTrim = 0;

  const schedule = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      void flush();
    }, flushMs);
    timer.unref?.();
  };

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const lines = [...buffer, ...droppedNotes(dropped, clock())];
    buffer = [];
    dropped = new Map();
    // One flush at a time, in order: a line is never written before one buffered earlier.
    writing = writing.then(() => (lines.length > 0 ? store(lines) : undefined)).catch((error) => onError(error));
    return writing;
  }

  async function store(lines: AgentLogLine[]): Promise<void> {
    await pgTransaction(db, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtext('agent_logs'))");
      await client.query(
        `INSERT INTO agent_logs ("agentId", at, level, source, name, "sessionId", "turnId", message)
         SELECT a, t AT TIME ZONE 'UTC', lv, s, n, se, tu, m FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[],
           $7::text[], $8::text[]) AS l(a, t, lv, s, n, se, tu, m)`,
        columns(lines),
      );
    });
    const now = clock().getTime();
    for (const agentId of new Set(lines.map((line) => line.agentId))) {
      if (now - (lastTrim.get(agentId) ?? 0) < trimEveryMs) continue;
      lastTrim.set(agentId, now);
      await poolOf(db).query(
        `DELETE FROM agent_logs WHERE "agentId" = $1 AND id <= (
           SELECT id FROM agent_logs WHERE "agentId" = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
        [agentId, maxLinesPerAgent],
      );
    }
    if (now - lastAgeTrim >= trimEveryMs) {
      lastAgeTrim = now;
      const cutoff = new Date(now - retentionDays * 86_400_000);
      await poolOf(db).query(`DELETE FROM agent_logs WHERE at < $1::timestamptz AT TIME ZONE 'UTC'`, [
        cutoff.toISOString(),
      ]);
    }
  }

  return {
    write(line) {
      if (buffer.length >= maxBuffered) {
        dropped.set(line.agentId, (dropped.get(line.agentId) ?? 0) + 1);
        return;
      }
      buffer.push({ ...line, at: line.at ?? clock(), message: clip(line.message) });
      schedule();
    },
    flush,
    close: flush,
  };
}

function clip(message: string): string {
  if (message.length <= maxMessageChars) return message;
  return `${message.slice(0, maxMessageChars)}… (${message.length - maxMessageChars} more characters)`;
}

function droppedNotes(dropped: Map<string, number>, at: Date): AgentLogLine[] {
  return [...dropped].map(([agentId, count]) => ({
    agentId,
    at,
    level: "warn",
    source: "platform",
    message: `${count} log lines were dropped: they came faster than they could be stored`,
  }));
}

function columns(lines: AgentLogLine[]) {
  return [
    lines.map((l) => l.agentId),
    // Timestamps are UTC in "timestamp without time zone" columns (Prisma's convention).
    lines.map((l) => l.at!.toISOString()),
    lines.map((l) => l.level),
    lines.map((l) => l.source),
    lines.map((l) => l.name ?? null),
    lines.map((l) => l.sessionId ?? null),
    lines.map((l) => l.turnId ?? null),
    // Postgres text holds no NUL.
    lines.map((l) => l.message.replaceAll("\u0000", "\uFFFD")),
  ];
}
