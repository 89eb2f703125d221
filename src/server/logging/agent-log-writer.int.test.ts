// The log writer on real Postgres: lines older than the retention go with the next flush, the
// per-agent cap keeps the newest, a burst past the buffer is counted in one warning, and
// Postgres-unfit text (NUL) is stored, not refused.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createDb } from "@/server/db";
import { createAgentLogWriter } from "./agent-logs";
import { findAgentLogs } from "./find-agent-logs";

let db: PrismaClient;
let teamId: string;

beforeAll(async () => {
  db = createDb(inject("databaseUrl"));
  teamId = (await db.team.create({ data: { name: "Log writer", slug: `log-writer-${Date.now()}` } })).id;
});

afterAll(async () => {
  await db?.$disconnect();
});

async function newAgent(name: string): Promise<string> {
  return (await db.agent.create({ data: { teamId, slug: `${name}-${Date.now()}`, name } })).id;
}

const messages = async (agentId: string) =>
  (await findAgentLogs(db, agentId, { limit: 1000 })).lines.map((line) => line.message);

describe("the agent log writer", () => {
  it("deletes lines older than the retention and keeps each agent's newest", async () => {
    const agentId = await newAgent("aged");
    const writer = createAgentLogWriter({ db, retentionDays: 1, maxLinesPerAgent: 3, trimEveryMs: 0 });
    const old = new Date(Date.now() - 2 * 86_400_000);
    writer.write({ agentId, level: "info", source: "tool", message: "two days old", at: old });
    for (const n of [1, 2, 3, 4]) writer.write({ agentId, level: "info", source: "tool", message: `fresh ${n}` });
    await writer.flush();
    expect(await messages(agentId)).toEqual(["fresh 2", "fresh 3", "fresh 4"]);
    await writer.close();
  });

  it("counts a burst past its buffer in one warning, and stores text with NUL", async () => {
    const agentId = await newAgent("burst");
    const writer = createAgentLogWriter({ db, maxBuffered: 5 });
    for (let n = 0; n < 8; n++) writer.write({ agentId, level: "info", source: "hook", message: `line ${n}\u0000` });
    await writer.flush();
    const lines = (await findAgentLogs(db, agentId, { limit: 1000 })).lines;
    expect(lines.map((line) => line.message)).toEqual([
      ...[0, 1, 2, 3, 4].map((n) => `line ${n}\uFFFD`),
      "3 log lines were dropped: they came faster than they could be stored",
    ]);
    expect(lines.at(-1)).toMatchObject({ level: "warn", source: "platform" });
    await writer.close();
  });
});
