// host.files on real Postgres: session scope isolation, deployment scope sharing, bytes through
// base64, appends racing on one file, every limit, path refusals, and cascades.
import crypto from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb, poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import { createTestAgent } from "@/testing/fixtures";
import { createFilesStore, fileLimits } from "./files";

const db = createDb(inject("databaseUrl"));
afterAll(() => db.$disconnect());

async function sessionOf(agentId: string, versionId: string): Promise<string> {
  const id = `ses_${crypto.randomUUID().replace(/-/g, "")}`;
  await db.session.create({
    data: { id, agentId, agentVersionId: versionId, ownerKind: "local", ownerId: "test" },
  });
  return id;
}

/** An agent with two sessions, A and B, and a files store for each and one outside any session. */
async function twoSessions() {
  const { agent, version } = await createTestAgent(db);
  const [a, b] = [await sessionOf(agent.id, version.id), await sessionOf(agent.id, version.id)];
  return {
    agentId: agent.id,
    sessionA: a,
    sessionB: b,
    a: createFilesStore(db, { agentId: agent.id, sessionId: a }),
    b: createFilesStore(db, { agentId: agent.id, sessionId: b }),
    noSession: createFilesStore(db, { agentId: agent.id }),
  };
}

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const deployment = { scope: "deployment" } as const;
const MiB8 = fileLimits.fileBytes;

describe("host.files", () => {
  it("keeps session files to their session: B cannot read, list or delete A's", async () => {
    const { a, b } = await twoSessions();
    await a.write("notes/today.md", "# A's notes");
    expect(await a.read("notes/today.md")).toBe("# A's notes");
    expect(await a.read("notes/today.md", { scope: "session" })).toBe("# A's notes");
    expect(await b.read("notes/today.md")).toBeUndefined();
    expect(await b.list()).toEqual([]);
    await b.delete("notes/today.md");
    expect(await a.read("notes/today.md")).toBe("# A's notes");
    expect(await a.read("notes/today.md", deployment)).toBeUndefined();
  });

  it("shares deployment files among the agent's sessions and calls outside them, not with other agents", async () => {
    const { a, b, noSession } = await twoSessions();
    await a.write("shared/faq.md", "Q: hours? A: 9-5", deployment);
    expect(await b.read("shared/faq.md", deployment)).toBe("Q: hours? A: 9-5");
    expect(await noSession.read("shared/faq.md", deployment)).toBe("Q: hours? A: 9-5");
    expect(await b.read("shared/faq.md")).toBeUndefined();
    await noSession.write("shared/faq.md", "Q: hours? A: 8-6", deployment);
    expect(await a.read("shared/faq.md", deployment)).toBe("Q: hours? A: 8-6");
    const other = await twoSessions();
    expect(await other.a.read("shared/faq.md", deployment)).toBeUndefined();
    expect(await other.noSession.list("", deployment)).toEqual([]);
  });

  it("refuses session scope outside a session, pointing at deployment scope", async () => {
    const { noSession } = await twoSessions();
    const error = await refusal(noSession.read("x.md"));
    expect(error.code).toBe("bad_request");
    expect(error.message).toMatch(/outside a session.*\{ scope: "deployment" \}/);
    expect((await refusal(noSession.list())).code).toBe("bad_request");
    expect((await refusal(noSession.write("x.md", "", { scope: "everywhere" as never }))).code).toBe("invalid_input");
  });

  it("carries any bytes through base64 and refuses content that is not base64", async () => {
    const { a } = await twoSessions();
    const bytes = Buffer.concat([Buffer.from([0, 0xff, 0xfe, 0xc3, 0x28]), crypto.randomBytes(1000)]);
    await a.write("blob.bin", bytes.toString("base64"), { encoding: "base64" });
    expect(Buffer.from((await a.read("blob.bin", { encoding: "base64" }))!, "base64").equals(bytes)).toBe(true);
    await a.append("blob.bin", Buffer.from([1, 2, 3]).toString("base64"), { encoding: "base64" });
    const { rows } = await poolOf(db).query(
      `SELECT size, length(content) AS length FROM agent_files WHERE path = 'blob.bin' AND "sessionId" IS NOT NULL AND content = $1`,
      [Buffer.concat([bytes, Buffer.from([1, 2, 3])])],
    );
    expect(rows).toEqual([{ size: 1008, length: 1008 }]);
    await a.write("text.md", "héllo ✓");
    expect(await a.read("text.md", { encoding: "base64" })).toBe(Buffer.from("héllo ✓").toString("base64"));
    const bad = await refusal(a.write("blob.bin", "not base64!", { encoding: "base64" }));
    expect(bad.message).toBe('host.files: content for "blob.bin" is not padded standard base64');
    expect((await refusal(a.write("t", "\uD800", {}))).message).toMatch(/lone UTF-16 surrogate.*base64/);
    expect((await refusal(a.write("t", "x", { encoding: "latin1" as never }))).code).toBe("invalid_input");
  });

  it("appends atomically: 50 parallel appends to a new file leave 50 whole lines", async () => {
    const { a } = await twoSessions();
    const lines = Array.from({ length: 50 }, (_, i) => `{"turn":${i},"note":"${"n".repeat(i * 20)}"}\n`);
    await Promise.all(lines.map((line) => a.append("memory/journal.jsonl", line, deployment)));
    const written = (await a.read("memory/journal.jsonl", deployment))!;
    expect(written.split("\n").slice(0, -1).sort()).toEqual(lines.map((line) => line.slice(0, -1)).sort());
    await a.write("memory/journal.jsonl", "reset\n", deployment);
    expect(await a.read("memory/journal.jsonl", deployment)).toBe("reset\n");
  });

  it("takes files up to 8 MiB, refusing larger writes and appends that would pass it", async () => {
    const { a } = await twoSessions();
    await a.write("big.txt", "x".repeat(MiB8 - 1));
    await a.append("big.txt", "y");
    expect((await a.read("big.txt"))!.length).toBe(MiB8);
    const appended = await refusal(a.append("big.txt", "z"));
    expect(appended.code).toBe("payload_too_large");
    expect(appended.message).toBe(
      'host.files: appending 1 bytes to "big.txt" (8,388,608 bytes) would pass the limit of 8 MiB (8,388,608 bytes) per file',
    );
    expect((await a.read("big.txt"))!.endsWith("xy")).toBe(true);
    const written = await refusal(a.write("other.txt", "é".repeat(MiB8 / 2 + 1)));
    expect(written.message).toBe(
      'host.files: content for "other.txt" is 8,388,610 bytes; the limit is 8 MiB (8,388,608 bytes) per file',
    );
    expect((await refusal(a.write("other.txt", "x".repeat(MiB8 + 1)))).message).toMatch(/is at least 8,388,609 bytes/);
    const base64 = Buffer.alloc(MiB8 + 3).toString("base64");
    expect((await refusal(a.write("other.bin", base64, { encoding: "base64" }))).code).toBe("payload_too_large");
    expect(await a.list()).toEqual(["big.txt"]);
  });

  it("refuses a new file past 10,000 per scope, while overwrites and other scopes still work", async () => {
    const { a, b, agentId, sessionA } = await twoSessions();
    await poolOf(db).query(
      `INSERT INTO agent_files ("agentId", "scopeKey", "sessionId", path, content, size)
       SELECT $1, $2, $2, 'f/' || lpad(i::text, 5, '0'), '\\x'::bytea, 0 FROM generate_series(1, $3) i`,
      [agentId, sessionA, fileLimits.filesPerScope],
    );
    const full = await refusal(a.write("new.md", "x"));
    expect(full.code).toBe("payload_too_large");
    expect(full.message).toBe(
      'host.files: this scope holds 10,000 files, the limit; "new.md" would be a new one (delete files first)',
    );
    expect((await refusal(a.append("new.md", "x"))).message).toMatch(/10,000 files/);
    await a.write("f/00001", "overwritten");
    await a.append("f/00002", "appended");
    await b.write("new.md", "B's scope is its own");
    await a.write("new.md", "deployment scope too", deployment);
    await a.delete("f/00003");
    await a.write("new.md", "x");
    const listed = await a.list("f/");
    expect(listed).toHaveLength(fileLimits.listedFiles);
    expect(listed.slice(0, 3)).toEqual(["f/00001", "f/00002", "f/00004"]);
  });

  it("stores paths normalized and refuses paths that could leave the scope", async () => {
    const { a } = await twoSessions();
    await a.write("./notes//a.md", "a");
    expect(await a.read("notes/a.md")).toBe("a");
    expect(await a.list()).toEqual(["notes/a.md"]);
    for (const [path, problem] of [
      ["../secrets.txt", "must not have a '..' segment"],
      ["notes/../../x", "must not have a '..' segment"],
      ["/etc/passwd", "must be relative (no leading '/')"],
      ["a\0b", "must not contain a NUL character (\\u0000)"],
      ["notes/", "must name a file, not end with '/'"],
      ["x".repeat(1025), "is 1,025 bytes of UTF-8; the limit is 1,024"],
    ] as const) {
      const error = await refusal(a.write(path, "x"));
      expect(error.code).toBe("invalid_input");
      expect(error.message).toContain(problem);
      expect((await refusal(a.read(path))).code).toBe("invalid_input");
    }
    expect(await a.list()).toEqual(["notes/a.md"]);
  });

  it("lists by prefix in byte order, taking the prefix literally", async () => {
    const { a } = await twoSessions();
    for (const path of ["b/2.md", "b/10.md", "b/1.md", "b.md", "a/x.md", "B/1.md", "c%/1.md"]) await a.write(path, "");
    expect(await a.list("b/")).toEqual(["b/1.md", "b/10.md", "b/2.md"]);
    expect(await a.list("b")).toEqual(["b.md", "b/1.md", "b/10.md", "b/2.md"]);
    expect(await a.list("c%")).toEqual(["c%/1.md"]);
    expect(await a.list()).toEqual(["B/1.md", "a/x.md", "b.md", "b/1.md", "b/10.md", "b/2.md", "c%/1.md"]);
    await a.delete("b.md");
    expect(await a.read("b.md")).toBeUndefined();
  });

  it("goes with its session (deployment files stay), and everything with the agent", async () => {
    const { a, b, agentId, sessionA } = await twoSessions();
    await a.write("mine.md", "A");
    await b.write("mine.md", "B");
    await a.write("shared.md", "S", deployment);
    await poolOf(db).query(`INSERT INTO hook_cursors ("sessionId", "deliveredIndex") VALUES ($1, 3)`, [sessionA]);
    await db.session.delete({ where: { id: sessionA } });
    const rows = async () =>
      (
        await poolOf(db).query<{ scopeKey: string; path: string }>(
          `SELECT "scopeKey", path FROM agent_files WHERE "agentId" = $1 ORDER BY "scopeKey", path`,
          [agentId],
        )
      ).rows;
    expect((await rows()).map((row) => (row.scopeKey === "" ? `deployment:${row.path}` : row.path))).toEqual([
      "deployment:shared.md",
      "mine.md",
    ]);
    expect(await b.read("mine.md")).toBe("B");
    const cursors = await poolOf(db).query(`SELECT 1 FROM hook_cursors WHERE "sessionId" = $1`, [sessionA]);
    expect(cursors.rows).toEqual([]);
    expect((await refusal(a.write("mine.md", "again"))).code).toBe("not_found");
    await db.agent.delete({ where: { id: agentId } });
    expect(await rows()).toEqual([]);
  });

  it("keeps a row's scope key equal to its session (a check constraint)", async () => {
    const { agentId, sessionA } = await twoSessions();
    const insert = (scopeKey: string, sessionId: string | null) =>
      poolOf(db).query(
        `INSERT INTO agent_files ("agentId", "scopeKey", "sessionId", path, content, size) VALUES ($1, $2, $3, 'p', '\\x', 0)`,
        [agentId, scopeKey, sessionId],
      );
    await expect(insert("", sessionA)).rejects.toThrow(/agent_files_scopeKey_check/);
    await expect(insert("elsewhere", null)).rejects.toThrow(/agent_files_scopeKey_check/);
  });
});
