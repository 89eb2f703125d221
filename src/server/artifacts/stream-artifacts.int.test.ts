// The artifact stream on real Postgres and its NOTIFY channel: only what comes next by default,
// every one of many concurrent tags exactly once in commit order, filters, resume after a cursor,
// and replay since a time.
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb } from "@/server/db";
import { createEventHub, type EventHub } from "@/server/events/event-hub";
import { parseNdjson } from "@/server/http/ndjson";
import { openArtifactStream, type ArtifactStreamOptions } from "./stream-artifacts";
import { tagArtifact } from "./tag-artifact";

let db: PrismaClient;
let hub: EventHub;
let agentId: string;
let otherAgentId: string;

beforeAll(async () => {
  const databaseUrl = inject("databaseUrl");
  db = createDb(databaseUrl);
  hub = await createEventHub({ databaseUrl });
  const team = await db.team.create({ data: { name: "Streams", slug: `streams-${Date.now()}` } });
  const make = (slug: string) => db.agent.create({ data: { teamId: team.id, slug, name: slug } });
  agentId = (await make(`art-stream-${Date.now()}`)).id;
  otherAgentId = (await make(`art-other-${Date.now()}`)).id;
});

afterAll(async () => {
  await hub?.close();
  await db?.$disconnect();
});

type Line = { type: string; cursor?: string; artifact?: { kind: string; key: string; data: unknown } };

/** Opens a stream and collects lines until `count` artifacts came (or the time is up). */
async function collect(options: Partial<ArtifactStreamOptions>, count: number, during?: () => Promise<unknown>) {
  const stream = await openArtifactStream({ db, hub, agentId, heartbeatMs: 0, ...options });
  const lines: Line[] = [];
  const reading = (async () => {
    for await (const line of parseNdjson(stream)) {
      lines.push(line as Line);
      if (lines.filter((l) => l.type === "artifact").length >= count) break;
    }
  })();
  await during?.();
  await Promise.race([reading, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  return lines.filter((l) => l.type === "artifact");
}

const tag = (key: string, extra: object = {}) =>
  tagArtifact(db, agentId, { kind: "note", key, data: { key }, ...extra });

describe("artifact stream", () => {
  it("sends only what comes next, each of 40 concurrent tags once, in cursor order", async () => {
    await tag("before");
    const keys = Array.from({ length: 40 }, (_, i) => `c${i}`);
    const lines = await collect({}, 40, () => Promise.all(keys.map((key) => tag(key))));
    expect(lines.map((l) => l.artifact!.key).sort()).toEqual([...keys].sort());
    const cursors = lines.map((l) => BigInt(l.cursor!));
    expect(cursors).toEqual([...cursors].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(cursors).size).toBe(40);
  });

  it("filters by kind and session and ignores other agents", async () => {
    const lines = await collect({ kind: "report" }, 1, async () => {
      await tagArtifact(db, otherAgentId, { kind: "report", key: "elsewhere" });
      await tag("not-a-report");
      await tag("r1", { kind: "report" });
    });
    expect(lines.map((l) => l.artifact!.key)).toEqual(["r1"]);
  });

  it("resumes after a cursor: an update to a record comes again, with its new data", async () => {
    const [first] = await collect({}, 1, () => tag("resume", { data: { v: 1 } }));
    await tag("resume", { data: { v: 2 } });
    const [again] = await collect({ after: first!.cursor }, 1);
    expect(again!.artifact).toMatchObject({ key: "resume", data: { v: 2 } });
    expect(BigInt(again!.cursor!)).toBeGreaterThan(BigInt(first!.cursor!));
  });

  it("replays records updated since a time, then goes on live", async () => {
    const since = new Date().toISOString();
    await tag("since-1");
    const lines = await collect({ updatedSince: since }, 2, () => tag("since-2"));
    expect(lines.map((l) => l.artifact!.key)).toEqual(["since-1", "since-2"]);
  });
});
