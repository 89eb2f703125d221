// Event log and stream benchmarks (issue goals in brackets):
//   append → client latency with 1,000 open streams (p50 ≤ 5 ms, p99 ≤ 30 ms)
//   replay of a 100k-event session from 0 (≥ 150k events/s)
//   memory per idle stream with heartbeats (≤ 40 KiB)
//   sustained appends across 100 sessions, nothing lost (≥ 3,000 events/s)
// In-process: streams are the same ReadableStreams the route returns, read by local readers;
// appends go through appendEvents and Postgres NOTIFY like the worker's.
import crypto from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { appendEvents } from "@/server/events/append-events";
import { createEventHub } from "@/server/events/event-hub";
import { streamSession } from "@/server/events/stream-session";
import { parseNdjson } from "@/server/http/ndjson";
import { poolOf } from "@/server/db";
import { createTestAgent } from "@/testing/fixtures";
import { ms, percentile } from "./stats";

const delta = (n: number) => ({ type: "message.appended" as const, data: { delta: `token ${n} ` } });

async function sessions(db: PrismaClient, count: number): Promise<string[]> {
  const { agent, version } = await createTestAgent(db);
  const ids = Array.from({ length: count }, () => `ses_${crypto.randomUUID().replace(/-/g, "")}`);
  await db.session.createMany({
    data: ids.map((id) => ({
      id,
      agentId: agent.id,
      agentVersionId: version.id,
      ownerKind: "local",
      ownerId: "bench",
    })),
  });
  return ids;
}

async function latency(db: PrismaClient, databaseUrl: string) {
  const hub = await createEventHub({ databaseUrl });
  const ids = await sessions(db, 100);
  const received = new Map<string, number[]>();
  const readers = ids.flatMap((sessionId) =>
    Array.from({ length: 10 }, async () => {
      const stream = streamSession({ db, hub, sessionId, startIndex: 0, heartbeatMs: 15_000 });
      for await (const line of parseNdjson(stream)) {
        const event = line as { index?: number };
        if (event.index === undefined) continue;
        const key = `${sessionId}:${event.index}`;
        received.set(key, [...(received.get(key) ?? []), performance.now()]);
        if (event.index === 2) break;
      }
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const samples: number[] = [];
  const sent = new Map<string, number>();
  for (let round = 0; round < 3; round++) {
    for (const sessionId of ids) {
      const at = performance.now();
      const [event] = await appendEvents({ db, sessionId, events: [delta(round)] });
      sent.set(`${sessionId}:${event!.index}`, at);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  await Promise.all(readers);
  for (const [key, times] of received) for (const time of times) samples.push(time - sent.get(key)!);
  await hub.close();
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
}

async function replay(db: PrismaClient, databaseUrl: string) {
  const [sessionId] = await sessions(db, 1);
  const count = 100_000;
  await db.$executeRawUnsafe(
    `INSERT INTO session_events ("sessionId", index, type, at, data) SELECT $1, i, 'message.appended', now(), jsonb_build_object('delta', 'token ' || i) FROM generate_series(0, ${count - 1}) i`,
    sessionId,
  );
  await db.session.update({ where: { id: sessionId! }, data: { nextIndex: count } });
  const hub = await createEventHub({ databaseUrl });
  // The median of three full replays: one run on a 2-core machine swings with whatever else runs.
  const rates: number[] = [];
  for (let run = 0; run < 3; run++) {
    const startedAt = performance.now();
    let seen = 0;
    for await (const line of parseNdjson(
      streamSession({
        db,
        hub,
        sessionId: sessionId!,
        startIndex: 0,
        heartbeatMs: 0,
        maxBufferedBytes: 64 * 1024 * 1024,
      }),
    )) {
      if ((line as { index: number }).index !== seen++) throw new Error("replay out of order");
      if (seen === count) break;
    }
    rates.push(count / ((performance.now() - startedAt) / 1000));
  }
  await hub.close();
  return { count, perSecond: percentile(rates, 50) };
}

async function idleMemory(db: PrismaClient, databaseUrl: string) {
  const hub = await createEventHub({ databaseUrl });
  const ids = await sessions(db, 100);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with --expose-gc (npm run bench does)");
  // Settle what earlier measurements left behind, so only the streams are counted.
  const settle = async () => {
    for (let i = 0; i < 4; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await settle();
  const before = process.memoryUsage();
  const readers = ids.flatMap((sessionId) =>
    Array.from({ length: 10 }, () =>
      streamSession({ db, hub, sessionId, startIndex: 0, heartbeatMs: 15_000 }).getReader(),
    ),
  );
  const pending = readers.map((reader) => reader.read());
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await settle();
  const after = process.memoryUsage();
  for (const reader of readers) await reader.cancel();
  await Promise.allSettled(pending);
  await hub.close();
  const used = (m: NodeJS.MemoryUsage) => m.heapUsed + m.external;
  return { kiB: (used(after) - used(before)) / 1024 / readers.length, streams: readers.length };
}

/** The same load shape with a bare one-row UPDATE per call: what one commit costs here. */
async function commitBaseline(db: PrismaClient) {
  const ids = await sessions(db, 100);
  const seconds = 5;
  const deadline = performance.now() + seconds * 1000;
  const counts = await Promise.all(
    ids.map(async (id) => {
      let n = 0;
      for (; performance.now() < deadline; n++) {
        await poolOf(db).query({
          name: "bench-commit",
          text: `UPDATE sessions SET "updatedAt" = now() WHERE id = $1`,
          values: [id],
        });
      }
      return n;
    }),
  );
  return counts.reduce((a, b) => a + b, 0) / seconds;
}

async function sustained(db: PrismaClient) {
  const ids = await sessions(db, 100);
  const seconds = 10;
  const deadline = performance.now() + seconds * 1000;
  const counts = await Promise.all(
    ids.map(async (sessionId) => {
      let n = 0;
      while (performance.now() < deadline) await appendEvents({ db, sessionId, events: [delta(n++)] });
      return n;
    }),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  const stored = await db.sessionEvent.groupBy({
    by: ["sessionId"],
    where: { sessionId: { in: ids } },
    _count: true,
    _max: { index: true },
  });
  const isIntact = stored.every(
    (row) => row._count === counts[ids.indexOf(row.sessionId)] && row._max.index === row._count - 1,
  );
  return { total, perSecond: total / seconds, isIntact };
}

export async function benchStreams(db: PrismaClient, databaseUrl: string): Promise<string> {
  const lat = await latency(db, databaseUrl);
  console.log(`streams: latency p50 ${ms(lat.p50)} p99 ${ms(lat.p99)} (${lat.samples} deliveries)`);
  const rep = await replay(db, databaseUrl);
  console.log(`streams: replay ${Math.round(rep.perSecond)} events/s`);
  const mem = await idleMemory(db, databaseUrl);
  console.log(`streams: idle stream ${mem.kiB.toFixed(1)} KiB`);
  const sus = await sustained(db);
  console.log(`streams: sustained ${Math.round(sus.perSecond)} events/s, intact: ${sus.isIntact}`);
  const baseline = await commitBaseline(db);
  console.log(`streams: bare commits ${Math.round(baseline)}/s`);
  const yes = (isMet: boolean) => (isMet ? "yes" : "no");
  return `## Event log and streams

In-process: the streams are the ReadableStreams \`GET …/stream\` returns, read by local readers
(no HTTP); appends go through \`appendEvents\` and Postgres NOTIFY exactly as the worker's do.
Each measurement uses fresh sessions. Replay swings widely with the machine's phase: on
2026-11-30, three alternating runs of two builds measured 98k, 164k and 111k events/s for one and
109k, 152k and 171k for the other (the stream's replay path was the same in both); one run's
"no" below the goal is not a regression by itself, compare alternating runs.

| measurement | result | goal | met |
|---|---|---|---|
| append → client latency, 1,000 open streams (100 sessions × 10), ${lat.samples} deliveries | p50 ${ms(lat.p50)}, p99 ${ms(lat.p99)} | p50 ≤ 5 ms, p99 ≤ 30 ms | ${yes(lat.p50 <= 5 && lat.p99 <= 30)} |
| replay of a ${rep.count.toLocaleString("en")}-event session from index 0 (median of 3) | ${Math.round(rep.perSecond).toLocaleString("en")} events/s | ≥ 150,000 events/s | ${yes(rep.perSecond >= 150_000)} |
| memory per idle stream (${mem.streams} streams, heartbeats on; V8 heap + external, after GC) | ${mem.kiB.toFixed(1)} KiB | ≤ 40 KiB | ${yes(mem.kiB <= 40)} |
| sustained appends, 100 sessions in parallel for 10 s | ${Math.round(sus.perSecond).toLocaleString("en")} events/s, ${sus.isIntact ? "nothing lost or duplicated" : "LOSS OR GAPS FOUND"} | ≥ 3,000 events/s, nothing lost | ${yes(sus.perSecond >= 3000 && sus.isIntact)} |
| for comparison: bare one-row UPDATE commits, same load | ${Math.round(baseline).toLocaleString("en")} commits/s | — | — |

Postgres serialises notifying commits on a global queue lock, so one commit per append would
stay well below the bare-commit rate; appends therefore go through group commit
(\`src/server/events/group-commit.ts\`): whatever arrives while a write is in flight is written
by the next single statement, one commit and one round of \`NOTIFY\` for all its sessions.
`;
}
