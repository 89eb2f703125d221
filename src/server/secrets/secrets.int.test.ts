// Agent secrets on real Postgres: only ciphertext is stored, set rotates, remove removes, and
// the worker's reader hands a version the secrets it expects and nothing else, seeing a change as
// soon as its notice arrives.
import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, poolOf } from "@/server/db";
import { createTestAgent, testManifest } from "@/testing/fixtures";
import { createSecretReader, type SecretReader } from "./create-secret-reader";
import { listSecrets } from "./list-secrets";
import { removeSecret } from "./remove-secret";
import { setSecret } from "./set-secret";
import { secretsChannel } from "@/server/channels";

const databaseUrl = inject("databaseUrl");
const db = createDb(databaseUrl);
const key = crypto.randomBytes(32);
// Its own channel, so that other test files' changes do not clear what this one checks is kept.
const channel = `secrets_test_${process.pid}`;
let reader: SecretReader;

beforeAll(async () => {
  reader = await createSecretReader({ db, databaseUrl, key, channel, maxAgeMs: 60_000 });
});
afterAll(async () => {
  await reader.close();
  await db.$disconnect();
});

/** An agent whose active version expects `names` (as its manifest lists them). */
async function agentExpecting(names: string[]) {
  const created = await createTestAgent(db);
  await db.agentVersion.update({
    where: { id: created.version.id },
    data: { manifest: testManifest({ secretNames: names }) },
  });
  return created;
}

/** Forwards the real channel's notices to the test channel, as the reader would hear them. */
const relay = async (agentId: string) => poolOf(db).query(`SELECT pg_notify($1, $2)`, [channel, agentId]);

describe("agent secrets", () => {
  it("stores ciphertext, never the value", async () => {
    const { agent } = await agentExpecting(["API_KEY"]);
    const value = `plain-${crypto.randomUUID()}`;
    expect(
      await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value, updatedBy: "ada@example.test" }),
    ).toMatchObject({ name: "API_KEY", isNew: true });
    const { rows } = await poolOf(db).query(`SELECT * FROM agent_secrets WHERE "agentId" = $1`, [agent.id]);
    expect(rows).toHaveLength(1);
    const stored = Buffer.concat(
      Object.values(rows[0] as Record<string, unknown>).map((column) =>
        Buffer.isBuffer(column) ? column : Buffer.from(String(column)),
      ),
    );
    expect(stored.includes(Buffer.from(value))).toBe(false);
    expect(stored.includes(Buffer.from(value.slice(6)))).toBe(false);
  });

  it("lists names and who set them, and which expected names are missing, without values", async () => {
    const { agent } = await agentExpecting(["API_KEY", "OTHER_TOKEN"]);
    await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "value-one", updatedBy: "ada@example.test" });
    await setSecret({ db, key, agentId: agent.id, name: "LEFTOVER", value: "value-two" });
    const listed = await listSecrets({ db, agentId: agent.id });
    expect(listed).toEqual({
      secrets: [
        { name: "API_KEY", updatedAt: expect.any(String), updatedBy: "ada@example.test", isDeclared: true },
        { name: "LEFTOVER", updatedAt: expect.any(String), updatedBy: null, isDeclared: false },
      ],
      declared: ["API_KEY", "OTHER_TOKEN"],
      missing: ["OTHER_TOKEN"],
    });
    expect(JSON.stringify(listed)).not.toMatch(/value-one|value-two/);
  });

  it("rotates a secret in place, and removes it", async () => {
    const { agent, version } = await agentExpecting(["API_KEY"]);
    await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "first-value" });
    const rotated = await setSecret({
      db,
      key,
      agentId: agent.id,
      name: "API_KEY",
      value: "second-value",
      now: new Date("2030-01-01T00:00:00Z"),
    });
    expect(rotated).toEqual({ name: "API_KEY", updatedAt: "2030-01-01T00:00:00.000Z", isNew: false });
    expect((await listSecrets({ db, agentId: agent.id })).secrets).toEqual([
      expect.objectContaining({ name: "API_KEY", updatedAt: "2030-01-01T00:00:00.000Z" }),
    ]);
    const uncached = await createSecretReader({ db, databaseUrl, key, channel: `${channel}_fresh`, maxAgeMs: 0 });
    try {
      expect(await uncached.forVersion(version.id)).toEqual({ API_KEY: "second-value" });
      await removeSecret({ db, agentId: agent.id, name: "API_KEY" });
      expect(await uncached.forVersion(version.id)).toEqual({});
    } finally {
      await uncached.close();
    }
    expect((await listSecrets({ db, agentId: agent.id })).missing).toEqual(["API_KEY"]);
    await expect(removeSecret({ db, agentId: agent.id, name: "API_KEY" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses bad names and values, and unknown agents", async () => {
    const { agent } = await agentExpecting([]);
    const set = (name: string, value: string, agentId = agent.id) => setSecret({ db, key, agentId, name, value });
    await expect(set("1BAD", "value")).rejects.toMatchObject({ code: "invalid_input" });
    await expect(set("MY-KEY", "value")).rejects.toMatchObject({ code: "invalid_input" });
    await expect(set("API_KEY", "")).rejects.toMatchObject({ code: "invalid_input" });
    await expect(set("API_KEY", "a\0b")).rejects.toMatchObject({ code: "invalid_input" });
    await expect(set("API_KEY", "x".repeat(64 * 1024 + 1))).rejects.toMatchObject({ code: "invalid_input" });
    await expect(set("API_KEY", "value", "no-such-agent")).rejects.toMatchObject({ code: "not_found" });
    expect(await set("API_KEY", "x".repeat(64 * 1024))).toMatchObject({ isNew: true });
  });

  it("announces every set and remove on its channel, with the agent id", async () => {
    const { agent } = await agentExpecting(["API_KEY"]);
    const listener = new pg.Client({ connectionString: databaseUrl });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on(
        "notification",
        (notice) => notice.channel === secretsChannel.name && heard.push(notice.payload ?? ""),
      );
      await listener.query(`LISTEN ${secretsChannel.name}`);
      await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "v1-value" });
      await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "v2-value" });
      await removeSecret({ db, agentId: agent.id, name: "API_KEY" });
      await expect.poll(() => heard.filter((payload) => payload === agent.id).length).toBe(3);
    } finally {
      await listener.end();
    }
  });
});

describe("the secret reader", () => {
  it("returns only the names the version expects", async () => {
    const { agent, version } = await agentExpecting(["API_KEY", "UNSET_ONE"]);
    await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "expected-value" });
    await setSecret({ db, key, agentId: agent.id, name: "NOT_DECLARED", value: "hidden-value" });
    expect(await reader.forVersion(version.id)).toEqual({ API_KEY: "expected-value" });
    // Another version of the same agent that expects nothing gets nothing.
    const bare = await db.agentVersion.create({
      data: {
        agentId: agent.id,
        number: 2,
        status: "ready",
        archivePath: "-",
        diagnostics: [],
        fileCount: 1,
        sourceBytes: 1,
        manifest: testManifest({ secretNames: [] }),
      },
    });
    expect(await reader.forVersion(bare.id)).toEqual({});
    await expect(reader.forVersion("no-such-version")).rejects.toMatchObject({ code: "not_found" });
  });

  it("falls back to connection templates for manifests that predate secretNames", async () => {
    const { agent, version } = await createTestAgent(db);
    const connections = [
      {
        name: "helpdesk",
        file: "x",
        scope: "mcp" as const,
        config: { headers: { authorization: "Bearer ${HELPDESK_TOKEN}" } },
      },
    ];
    await db.agentVersion.update({ where: { id: version.id }, data: { manifest: testManifest({ connections }) } });
    await setSecret({ db, key, agentId: agent.id, name: "HELPDESK_TOKEN", value: "desk-value" });
    await setSecret({ db, key, agentId: agent.id, name: "OTHER", value: "other-value" });
    expect(await reader.forVersion(version.id)).toEqual({ HELPDESK_TOKEN: "desk-value" });
  });

  it("keeps what it read until a notice for the agent arrives, then sees the rotation", async () => {
    const { agent, version } = await agentExpecting(["API_KEY"]);
    await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "before-rotation" });
    expect(await reader.forVersion(version.id)).toEqual({ API_KEY: "before-rotation" });
    // Written behind the reader's back (its channel is the test's): still the kept value.
    await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "after-rotation" });
    expect(await reader.forVersion(version.id)).toEqual({ API_KEY: "before-rotation" });
    // A notice for another agent leaves it be; the agent's own drops it.
    await relay("some-other-agent");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await reader.forVersion(version.id)).toEqual({ API_KEY: "before-rotation" });
    await relay(agent.id);
    await expect.poll(() => reader.forVersion(version.id), { timeout: 5_000 }).toEqual({ API_KEY: "after-rotation" });
  });

  it("hears the notices set and remove send on the real channel", async () => {
    const live = await createSecretReader({ db, databaseUrl, key, maxAgeMs: 60_000 });
    try {
      const { agent, version } = await agentExpecting(["API_KEY"]);
      await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "live-one" });
      expect(await live.forVersion(version.id)).toEqual({ API_KEY: "live-one" });
      await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "live-two" });
      await expect.poll(() => live.forVersion(version.id), { timeout: 5_000 }).toEqual({ API_KEY: "live-two" });
      await removeSecret({ db, agentId: agent.id, name: "API_KEY" });
      await expect.poll(() => live.forVersion(version.id), { timeout: 5_000 }).toEqual({});
    } finally {
      await live.close();
    }
  });

  it("keeps nothing longer than its maximum age", async () => {
    let now = 0;
    const aging = await createSecretReader({ db, databaseUrl, key, channel, maxAgeMs: 1_000, clock: () => now });
    try {
      const { agent, version } = await agentExpecting(["API_KEY"]);
      await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "old-value" });
      expect(await aging.forVersion(version.id)).toEqual({ API_KEY: "old-value" });
      await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "new-value" });
      now += 999;
      expect(await aging.forVersion(version.id)).toEqual({ API_KEY: "old-value" });
      now += 1;
      expect(await aging.forVersion(version.id)).toEqual({ API_KEY: "new-value" });
    } finally {
      await aging.close();
    }
  });

  it("forgets what it kept when its listener drops, since notices sent meanwhile are lost", async () => {
    const { agent, version } = await agentExpecting(["API_KEY"]);
    await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "kept-value" });
    expect(await reader.forVersion(version.id)).toEqual({ API_KEY: "kept-value" });
    const listening = async () =>
      (
        await poolOf(db).query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN %${channel}"%' AND pid <> pg_backend_pid()`,
        )
      ).rows.map((row) => row.pid);
    const [before] = await listening();
    await poolOf(db).query(`SELECT pg_terminate_backend($1)`, [before]);
    // Changed while it was not listening (and, on the test's channel, unannounced anyway).
    await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "changed-while-down" });
    await expect.poll(async () => (await listening()).some((pid) => pid !== before), { timeout: 10_000 }).toBe(true);
    expect(await reader.forVersion(version.id)).toEqual({ API_KEY: "changed-while-down" });
  });

  it("fails, naming the secret and not its value, when the key is not the one it was set with", async () => {
    const { agent, version } = await agentExpecting(["API_KEY"]);
    await setSecret({ db, key, agentId: agent.id, name: "API_KEY", value: "right-key-value" });
    const wrong = await createSecretReader({ db, databaseUrl, key: crypto.randomBytes(32), channel });
    try {
      const error = await wrong.forVersion(version.id).catch((caught: Error) => caught);
      expect((error as Error).message).toContain("API_KEY");
      expect((error as Error).message).not.toContain("right-key-value");
    } finally {
      await wrong.close();
    }
  });
});
