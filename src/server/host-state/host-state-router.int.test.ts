// The dashboard's host-state procedures on real Postgres: the memory journal's newest entries
// (bad lines skipped and counted, a journal larger than one read), deployment files listed and
// shown (cut at 64 KiB, binary withheld), and who may read them.
import crypto from "node:crypto";
import type { Role } from "@prisma/client";
import { afterAll, describe, expect, inject, it } from "vitest";
import { type MemoryJournalEntry, memoryJournalPath } from "@/agents/sdk/memory";
import { createDb } from "@/server/db";
import type { Context } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";
import { createTestAgent } from "@/testing/fixtures";
import { createFilesStore } from "./files";

const db = createDb(inject("databaseUrl"));
afterAll(() => db.$disconnect());

const deployment = { scope: "deployment" } as const;
const trpc = (userId: string) =>
  appRouter.createCaller({ db, userId, isCrossSite: false, origin: "http://127.0.0.1:3000" } satisfies Context);

/** A fresh agent, its team's people by role, and its files store. */
async function agentWithPeople() {
  const { team, agent, version } = await createTestAgent(db);
  const people = {} as Record<Role, ReturnType<typeof trpc>>;
  for (const role of ["viewer", "member", "admin", "owner"] as const) {
    const user = await db.user.create({ data: { email: `${role}-${crypto.randomUUID().slice(0, 8)}@example.test` } });
    await db.membership.create({ data: { teamId: team.id, userId: user.id, role } });
    people[role] = trpc(user.id);
  }
  const at = { teamSlug: team.slug, slug: agent.slug };
  return { agent, version, at, people, files: createFilesStore(db, { agentId: agent.id }) };
}

function entry(n: number, fields: Partial<MemoryJournalEntry> = {}): MemoryJournalEntry {
  return {
    at: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
    sessionId: `ses_${n}`,
    channelId: "api",
    status: "completed",
    title: null,
    userMessage: `question ${n}`,
    result: `answer ${n}`,
    usage: { inputTokens: 10 + n, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    ...fields,
  };
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe("host-state.memory", () => {
  it("says there is no journal until the memory hook writes one", async () => {
    const { at, people } = await agentWithPeople();
    expect(await people.member["host-state"].memory(at)).toEqual({ entries: [], skipped: 0, hasJournal: false });
  });

  it("returns the newest entries first, skipping and counting lines that are not entries", async () => {
    const { at, people, files } = await agentWithPeople();
    await files.append(memoryJournalPath, line(entry(1)), deployment);
    await files.append(memoryJournalPath, "{not json\n\n", deployment);
    await files.append(memoryJournalPath, line({ at: "2025-01-01", note: "not an entry" }), deployment);
    const failed = entry(2, { status: "failed", result: "model unavailable", usage: null, title: "Refunds" });
    await files.append(memoryJournalPath, line(failed) + line(entry(3, { result: { ok: true } })), deployment);

    const journal = await people.member["host-state"].memory(at);
    expect(journal.entries.map((e) => e.sessionId)).toEqual(["ses_3", "ses_2", "ses_1"]);
    expect(journal.entries[1]).toEqual(failed);
    expect(journal.entries[0]?.result).toEqual({ ok: true });
    expect(journal).toMatchObject({ skipped: 2, hasJournal: true });

    const two = await people.member["host-state"].memory({ ...at, limit: 2 });
    expect(two.entries.map((e) => e.sessionId)).toEqual(["ses_3", "ses_2"]);
    expect(two.skipped).toBe(0);
    await expect(people.member["host-state"].memory({ ...at, limit: 101 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("reads back as far as it takes in a journal larger than one read, never counting a cut line", async () => {
    const { at, people, files } = await agentWithPeople();
    // 120 entries of ~10 KiB (multi-byte characters, so a read may start inside one): ~1.2 MiB,
    // more than the first 256 KiB read from the end.
    const lines = Array.from({ length: 120 }, (_, n) => line(entry(n, { result: `é${"ü".repeat(5000)} ${n}` })));
    for (let i = 0; i < lines.length; i += 30)
      await files.append(memoryJournalPath, lines.slice(i, i + 30).join(""), deployment);

    const journal = await people.member["host-state"].memory({ ...at, limit: 100 });
    expect(journal.entries).toHaveLength(100);
    expect(journal.entries[0]?.sessionId).toBe("ses_119");
    expect(journal.entries[99]?.sessionId).toBe("ses_20");
    expect(journal.entries[99]?.result).toBe(`é${"ü".repeat(5000)} 20`);
    expect(journal.skipped).toBe(0);
  });
});

describe("host-state.files and host-state.file", () => {
  it("lists deployment files, newest first, without any session's files", async () => {
    const { agent, version, at, people, files } = await agentWithPeople();
    await files.write("notes/old.md", "old", deployment);
    await files.write("audit.log", "one line\n", deployment);
    const session = await db.session.create({
      data: {
        id: `ses_${crypto.randomUUID().replace(/-/g, "")}`,
        agentId: agent.id,
        agentVersionId: version.id,
        ownerKind: "local",
        ownerId: "test",
      },
    });
    await createFilesStore(db, { agentId: agent.id, sessionId: session.id }).write("private.md", "mine");
    await db.agentFile.updateMany({
      where: { agentId: agent.id, path: "notes/old.md" },
      data: { updatedAt: new Date("2024-01-01T00:00:00Z") },
    });

    const listed = await people.member["host-state"].files(at);
    expect(listed).toEqual({
      files: [
        { path: "audit.log", size: 9, updatedAt: expect.any(String) },
        { path: "notes/old.md", size: 3, updatedAt: "2024-01-01T00:00:00.000Z" },
      ],
      isTruncated: false,
    });
    expect(Math.abs(Date.parse(listed.files[0]!.updatedAt) - Date.now())).toBeLessThan(60_000);
  });

  it("shows a file's text, cut at 64 KiB, and says a binary file is binary", async () => {
    const { at, people, files } = await agentWithPeople();
    await files.write("./notes/today.md", "# Today\nshipped ✓\n", deployment);
    expect(await people.member["host-state"].file({ ...at, path: "notes//today.md" })).toEqual({
      path: "notes/today.md",
      size: Buffer.byteLength("# Today\nshipped ✓\n"),
      updatedAt: expect.any(String),
      text: "# Today\nshipped ✓\n",
      isBinary: false,
      isTruncated: false,
    });

    // 65,535 ASCII bytes, then a three-byte character across the 64 KiB cut.
    await files.write("big.txt", `${"a".repeat(65_535)}✓ and more`, deployment);
    const big = await people.member["host-state"].file({ ...at, path: "big.txt" });
    expect(big).toMatchObject({ isTruncated: true, isBinary: false, size: 65_535 + 3 + 9 });
    expect(big.text).toBe("a".repeat(65_535));

    await files.write("logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]).toString("base64"), {
      ...deployment,
      encoding: "base64",
    });
    await files.write("latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString("base64"), {
      ...deployment,
      encoding: "base64",
    });
    for (const path of ["logo.png", "latin1.txt"]) {
      expect(await people.member["host-state"].file({ ...at, path })).toMatchObject({ text: null, isBinary: true });
    }
  });

  it("answers not_found for a missing file or a session file, and invalid_input for a bad path", async () => {
    const { at, people } = await agentWithPeople();
    await expect(people.member["host-state"].file({ ...at, path: "nope.md" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(people.member["host-state"].file({ ...at, path: "../etc/passwd" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("'..'"),
    });
  });
});

describe("who may read an agent's memory and files", () => {
  it("lets members and up read, refuses viewers, and does not reach another team's agent", async () => {
    const { at, people, files } = await agentWithPeople();
    await files.write("audit.log", "x", deployment);
    for (const role of ["member", "admin", "owner"] as const) {
      expect((await people[role]["host-state"].files(at)).files).toHaveLength(1);
    }
    for (const call of [
      people.viewer["host-state"].memory(at),
      people.viewer["host-state"].files(at),
      people.viewer["host-state"].file({ ...at, path: "audit.log" }),
    ]) {
      await expect(call).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    const other = await agentWithPeople();
    await expect(people.owner["host-state"].files({ ...at, slug: other.at.slug })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
