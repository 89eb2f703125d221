// host.kv on real Postgres: one namespace per agent whatever the session, version or worker;
// versions and compare-and-set; puts racing on one key; every limit.
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb, poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import { createTestAgent } from "@/testing/fixtures";
import { createKvStore, kvLimits } from "./kv";
import type { HostKv } from "./types";

const databaseUrl = inject("databaseUrl");
const db = createDb(databaseUrl);
// A second client, as a second worker on the same database has.
const otherWorkerDb = createDb(databaseUrl);
afterAll(async () => {
  await db.$disconnect();
  await otherWorkerDb.$disconnect();
});

async function freshKv(): Promise<{ kv: HostKv; agentId: string }> {
  const { agent } = await createTestAgent(db);
  return { kv: createKvStore(db, agent.id), agentId: agent.id };
}

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Fills the agent's kv with `n` keys `filler/<i>` in one statement, as many puts would. */
async function fillKeys(agentId: string, n: number) {
  await poolOf(db).query(
    `INSERT INTO agent_kv ("agentId", key, value) SELECT $1, 'filler/' || lpad(i::text, 5, '0'), 'true'::jsonb
     FROM generate_series(1, $2) i`,
    [agentId, n],
  );
}

describe("host.kv", () => {
  it("is one namespace per agent: another worker and a new version see a put, another agent does not", async () => {
    const { kv, agentId } = await freshKv();
    await kv.put("profile:ada", { name: "Ada", tags: ["vip"], visits: 3 });
    const version = await db.agentVersion.create({
      data: { agentId, number: 2, status: "ready", archivePath: "-", diagnostics: [], fileCount: 1, sourceBytes: 1 },
    });
    await db.agent.update({ where: { id: agentId }, data: { activeVersionId: version.id } });
    expect(await createKvStore(otherWorkerDb, agentId).get("profile:ada")).toEqual({
      name: "Ada",
      tags: ["vip"],
      visits: 3,
    });
    const { kv: otherAgent } = await freshKv();
    expect(await otherAgent.get("profile:ada")).toBeUndefined();
    expect(await otherAgent.list()).toEqual([]);
  });

  it("counts versions from 1, one per put; delete removes and starts the count again", async () => {
    const { kv } = await freshKv();
    expect(await kv.entry("k")).toBeUndefined();
    expect(await kv.put("k", "a")).toEqual({ version: 1 });
    expect(await kv.put("k", null)).toEqual({ version: 2 });
    expect(await kv.entry("k")).toEqual({ value: null, version: 2 });
    expect(await kv.get("k")).toBeNull();
    await kv.delete("k");
    await kv.delete("k");
    expect(await kv.get("k")).toBeUndefined();
    expect(await kv.put("k", 0)).toEqual({ version: 1 });
  });

  it("puts with ifVersion only over that version, 0 meaning absent; a mismatch names the key and both versions", async () => {
    const { kv } = await freshKv();
    expect(await kv.put("lock", "mine", { ifVersion: 0 })).toEqual({ version: 1 });
    const taken = await refusal(kv.put("lock", "theirs", { ifVersion: 0 }));
    expect(taken.code).toBe("conflict");
    expect(taken.message).toBe('host.kv put "lock": ifVersion 0 does not match; the stored version is 1');
    expect(await kv.put("lock", "next", { ifVersion: 1 })).toEqual({ version: 2 });
    const stale = await refusal(kv.put("lock", "stale", { ifVersion: 1 }));
    expect(stale.message).toBe('host.kv put "lock": ifVersion 1 does not match; the stored version is 2');
    expect(await kv.entry("lock")).toEqual({ value: "next", version: 2 });
    const absent = await refusal(kv.put("nope", 1, { ifVersion: 3 }));
    expect(absent.message).toBe('host.kv put "nope": ifVersion 3 does not match; the key is absent (version 0)');
    expect(await kv.get("nope")).toBeUndefined();
    expect((await refusal(kv.put("k", 1, { ifVersion: -1 }))).code).toBe("invalid_input");
    expect((await refusal(kv.put("k", 1, { ifVersion: 1.5 }))).message).toMatch(/whole number/);
  });

  it("ends at 20 after 20 parallel increments that retry on conflict", async () => {
    const { kv, agentId } = await freshKv();
    await kv.put("counter", 0);
    let conflicts = 0;
    const increment = async (store: HostKv) => {
      for (;;) {
        const current = (await store.entry("counter"))!;
        try {
          return await store.put("counter", (current.value as number) + 1, { ifVersion: current.version });
        } catch (error) {
          if ((error as AppError).code !== "conflict") throw error;
          conflicts++;
        }
      }
    };
    const stores = [kv, createKvStore(otherWorkerDb, agentId)];
    await Promise.all(Array.from({ length: 20 }, (_, i) => increment(stores[i % 2]!)));
    expect(await kv.entry("counter")).toEqual({ value: 20, version: 21 });
    // Without contention this test would prove nothing about compare-and-set.
    expect(conflicts).toBeGreaterThan(0);
  });

  it("keeps the last of 20 parallel plain puts whole, with one version per put", async () => {
    const { kv } = await freshKv();
    const values = Array.from({ length: 20 }, (_, i) => ({ writer: i, payload: "x".repeat(1000 * i) }));
    await Promise.all(values.map((value) => kv.put("shared", value)));
    const { value, version } = (await kv.entry("shared"))!;
    expect(version).toBe(20);
    expect(values).toContainEqual(value);
  });

  it("takes keys of 1 to 512 bytes of UTF-8 and refuses others, naming the limit", async () => {
    const { kv } = await freshKv();
    await kv.put("k".repeat(512), 1);
    await kv.put("é".repeat(256), 1);
    const long = await refusal(kv.put("é".repeat(257), 1));
    expect(long.code).toBe("invalid_input");
    expect(long.message).toMatch(/is 514 bytes of UTF-8; keys are 1 to 512 bytes$/);
    expect((await refusal(kv.put("", 1))).message).toBe('host.kv key "" is 0 bytes of UTF-8; keys are 1 to 512 bytes');
    expect((await refusal(kv.get("k".repeat(513)))).code).toBe("invalid_input");
    expect((await refusal(kv.put("a\0b", 1))).message).toMatch(/must not contain a NUL/);
    expect(await kv.list()).toEqual(["k".repeat(512), "é".repeat(256)]);
  });

  it("takes values up to 1 MiB as JSON and refuses larger ones and non-JSON, storing nothing", async () => {
    const { kv } = await freshKv();
    const limit = kvLimits.valueBytes;
    await kv.put("big", "x".repeat(limit - 2)); // the quotes make it exactly 1 MiB
    expect(((await kv.get("big")) as string).length).toBe(limit - 2);
    const large = await refusal(kv.put("big", "x".repeat(limit - 1)));
    expect(large.code).toBe("payload_too_large");
    expect(large.message).toBe(
      'host.kv value for "big" is 1,048,577 bytes as JSON; the limit is 1 MiB (1,048,576 bytes)',
    );
    expect((await kv.entry("big"))?.version).toBe(1);
    const notJson = await refusal(kv.put("n", { ratio: Number.NaN }));
    expect(notJson.code).toBe("invalid_input");
    expect(notJson.message).toBe('host.kv value for "n" is not JSON: $["ratio"] is NaN');
    expect((await refusal(kv.put("n", undefined as never))).message).toMatch(/\$ is undefined/);
    expect((await refusal(kv.put("n", (() => 1) as never))).message).toMatch(/\$ is a function/);
    expect(await kv.get("n")).toBeUndefined();
  });

  it("refuses a new key past 10,000 per agent, while overwrites and deletes still work", async () => {
    const { kv, agentId } = await freshKv();
    await fillKeys(agentId, kvLimits.keysPerAgent - 1);
    await kv.put("last", 1);
    const full = await refusal(kv.put("one-too-many", 1));
    expect(full.code).toBe("payload_too_large");
    expect(full.message).toBe(
      'host.kv holds 10,000 keys for this agent, the limit; "one-too-many" would be a new one (delete keys first, or overwrite existing ones)',
    );
    expect((await refusal(kv.put("one-too-many", 1, { ifVersion: 0 }))).code).toBe("payload_too_large");
    expect(await kv.put("last", 2)).toEqual({ version: 2 });
    expect(await kv.put("filler/00001", "overwritten", { ifVersion: 1 })).toEqual({ version: 2 });
    await kv.delete("filler/00002");
    expect(await kv.put("one-too-many", 1)).toEqual({ version: 1 });
    // A listing is bounded: the first 1,000 keys in byte order.
    const listed = await kv.list();
    expect(listed).toHaveLength(kvLimits.listedKeys);
    expect(listed[0]).toBe("filler/00001");
    expect(listed.at(-1)).toBe("filler/01001");
  });

  it("lists keys by prefix in byte order, taking the prefix literally", async () => {
    const { kv } = await freshKv();
    for (const key of ["user:2", "user:10", "user:1", "user", "order:1", "User:1", "a%b", "axb", "a_c"]) {
      await kv.put(key, true);
    }
    expect(await kv.list("user:")).toEqual(["user:1", "user:10", "user:2"]);
    expect(await kv.list("a%")).toEqual(["a%b"]);
    expect(await kv.list("a_")).toEqual(["a_c"]);
    expect(await kv.list()).toEqual(["User:1", "a%b", "a_c", "axb", "order:1", "user", "user:1", "user:10", "user:2"]);
    expect(await kv.list("zzz")).toEqual([]);
  });

  it("is gone with its agent", async () => {
    const { kv, agentId } = await freshKv();
    await kv.put("k", 1);
    await db.agent.delete({ where: { id: agentId } });
    const { rows } = await poolOf(db).query(`SELECT 1 FROM agent_kv WHERE "agentId" = $1`, [agentId]);
    expect(rows).toEqual([]);
    expect((await refusal(kv.put("k", 2))).code).toBe("not_found");
  });
});
