// GET /<slug>/v1/artifacts/stream (docs/api.md, "Artifacts"): an agent's new and updated records
// as NDJSON, live. Every write takes a new `seq` under the agent's lock (tag-artifact.ts), so the
// stream reads past the last seq it sent whenever the agent's artifacts change and never misses
// a write that committed late. It subscribes before its first read; a record updated twice while
// the stream reads is sent once, as it is now. Heartbeats keep an idle stream open through proxies.
import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { heartbeatLineSchema } from "@/agents/sdk/stream-lines";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import type { EventHub } from "@/server/events/event-hub";
import { ndjsonLine } from "@/server/http/ndjson";
import { artifactRecordSchema } from "./schema";
import { type ArtifactRow, artifactColumns, toArtifactRecord } from "./tag-artifact";

export const artifactLineSchema = z.strictObject({
  type: z.literal("artifact"),
  /** Resume after this line with `?after=<cursor>`. */
  cursor: z.string(),
  artifact: artifactRecordSchema,
});

/** The stream's last line: reconnect with `after` = cursor. */
export const artifactErrorLineSchema = z.strictObject({
  type: z.literal("error"),
  error: z.string().min(1),
  message: z.string().optional(),
  cursor: z.string(),
});

export const artifactStreamLineSchema = z.discriminatedUnion("type", [
  artifactLineSchema,
  heartbeatLineSchema,
  artifactErrorLineSchema,
]);

export type ArtifactStreamOptions = {
  db: PrismaClient;
  hub: EventHub;
  agentId: string;
  kind?: string;
  session?: string;
  /** Records written after this cursor; when absent, from the newest record's on (only what comes next). */
  after?: string;
  /** Records updated at or after this time, then live (instead of `after`). */
  updatedSince?: string;
  heartbeatMs?: number;
  /** The caller's right checked again every `everyMs`; a throw ends the stream with an error line. */
  recheck?: { everyMs: number; check: () => Promise<unknown> };
};

const pageSize = 500;

export async function openArtifactStream(options: ArtifactStreamOptions): Promise<ReadableStream<Uint8Array>> {
  const { db, hub, agentId, heartbeatMs = 15_000, recheck } = options;
  let isDone = false;
  let isReading = false;
  let isDirty = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let rechecking: NodeJS.Timeout | undefined;
  let write: (value: unknown) => void = () => {};
  let finish: (line?: unknown) => void = () => {};
  // Subscribed before the first read: a change committed meanwhile makes the stream read again.
  const unsubscribe = hub.subscribeArtifacts(agentId, () => void read());
  let cursor: string;
  try {
    cursor = options.after ?? (options.updatedSince ? "0" : await newestSeq(db, agentId));
  } catch (error) {
    unsubscribe();
    throw error;
  }

  async function read(): Promise<void> {
    if (isDone) return;
    if (isReading) return void (isDirty = true);
    isReading = true;
    try {
      do {
        isDirty = false;
        for (;;) {
          const rows = await readAfter(db, options, cursor);
          if (isDone) return;
          for (const row of rows) {
            cursor = row.seq;
            write({ type: "artifact", cursor, artifact: toArtifactRecord(row) });
          }
          if (rows.length < pageSize) break;
        }
      } while (isDirty && !isDone);
    } catch (error) {
      finish({ type: "error", error: "stream_failed", message: (error as Error).message, cursor });
    } finally {
      isReading = false;
    }
  }

  const stop = () => {
    isDone = true;
    unsubscribe();
    clearTimeout(heartbeat);
    clearInterval(rechecking);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const armHeartbeat = () => {
        clearTimeout(heartbeat);
        if (heartbeatMs > 0 && !isDone)
          heartbeat = setTimeout(() => write({ type: "heartbeat", at: new Date().toISOString() }), heartbeatMs);
      };
      write = (value) => {
        if (isDone) return;
        controller.enqueue(ndjsonLine(value));
        armHeartbeat();
      };
      finish = (line) => {
        if (isDone) return;
        if (line) controller.enqueue(ndjsonLine(line));
        stop();
        controller.close();
      };
      // Headers go out with the first chunk: an empty one sends them now.
      controller.enqueue(new Uint8Array(0));
      armHeartbeat();
      if (recheck)
        rechecking = setInterval(() => {
          recheck.check().catch((error: unknown) => {
            const code = error instanceof AppError ? error.code : "unavailable";
            finish({ type: "error", error: code, message: (error as Error).message, cursor });
          });
        }, recheck.everyMs);
      void read();
    },
    cancel: stop,
  });
}

async function newestSeq(db: PrismaClient, agentId: string): Promise<string> {
  const { rows } = await poolOf(db).query<{ seq: string | null }>(
    `SELECT max(seq)::text AS seq FROM artifacts WHERE "agentId" = $1`,
    [agentId],
  );
  return rows[0]?.seq ?? "0";
}

function readAfter(db: PrismaClient, options: ArtifactStreamOptions, cursor: string): Promise<ArtifactRow[]> {
  return poolOf(db)
    .query<ArtifactRow>(
      `SELECT ${artifactColumns} FROM artifacts
       WHERE "agentId" = $1 AND seq > $2::bigint AND ($3::text IS NULL OR kind = $3)
         AND ($4::text IS NULL OR "sessionId" = $4)
         AND ($5::timestamptz IS NULL OR "updatedAt" >= $5::timestamptz AT TIME ZONE 'UTC')
       ORDER BY artifacts.seq LIMIT ${pageSize}`,
      [options.agentId, cursor, options.kind ?? null, options.session ?? null, options.updatedSince ?? null],
    )
    .then((result) => result.rows);
}
