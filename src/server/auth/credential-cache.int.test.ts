// The web process keeps tokens and agents between requests, and forgets them as soon as either
// changes, whoever changed them (this process, another one, a cascade), on real Postgres.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import { authenticateTokenForAgent } from "@/server/tokens/authenticate-token-for-agent";
import { createToken } from "@/server/tokens/create-token";
import { revokeToken } from "@/server/tokens/revoke-token";
import { createTestAgent } from "@/testing/fixtures";
import { credentialsChannel } from "@/server/channels";
import {
  createCredentialCache,
  forgetCredentials,
  processCredentialCache,
  type CredentialCache,
} from "./credential-cache";

const databaseUrl = inject("databaseUrl");
const db = createDb(databaseUrl);
let cache: CredentialCache;

// Its own channel: other test files, sharing this database, change tokens and agents meanwhile.
const channel = `credentials_test_${process.pid}`;
beforeAll(async () => {
  cache = await createCredentialCache({ databaseUrl, channel });
});
afterAll(async () => {
  await cache.close();
  await (await processCredentialCache(databaseUrl)).close();
  await db.$disconnect();
});

/** A lookup that counts how often it had to read. */
function counted(value: string, keep = true) {
  let loads = 0;
  return {
    get loads() {
      return loads;
    },
    lookup: (key: string) =>
      cache.lookup(
        key,
        async () => {
          loads++;
          return value;
        },
        () => keep,
      ),
  };
}

/** Until a lookup has to read again (the notice took effect), or the poll times out. */
const readsAgain = async (probe: ReturnType<typeof counted>, key: string) => {
  const before = probe.loads;
  await expect.poll(async () => (await probe.lookup(key), probe.loads > before), { timeout: 5_000 }).toBe(true);
};

describe("credential cache", () => {
  it("keeps what it may keep, and reads every time what it may not", async () => {
    const kept = counted("row");
    expect(await kept.lookup("k1")).toBe("row");
    expect(await kept.lookup("k1")).toBe("row");
    expect(kept.loads).toBe(1);
    const unknown = counted("nothing", false);
    await unknown.lookup("k2");
    await unknown.lookup("k2");
    expect(unknown.loads).toBe(2);
  });

  it("forgets everything when a notice arrives", async () => {
    const probe = counted("row");
    await probe.lookup("k");
    await probe.lookup("k");
    expect(probe.loads).toBe(1);
    await poolOf(db).query(`NOTIFY ${channel}`);
    await readsAgain(probe, "k");
  });

  it("keeps nothing longer than its maximum age", async () => {
    let now = 0;
    const aging = await createCredentialCache({ databaseUrl, channel, maxAgeMs: 1_000, clock: () => now });
    try {
      let loads = 0;
      const lookup = () =>
        aging.lookup(
          "k",
          async () => ++loads,
          () => true,
        );
      await lookup();
      now += 999;
      await lookup();
      expect(loads).toBe(1);
      now += 1;
      await lookup();
      expect(loads).toBe(2);
    } finally {
      await aging.close();
    }
  });
  it("keeps nothing read while a change was on its way", async () => {
    const { agent } = await createTestAgent(db);
    let loads = 0;
    const load = async () => {
      loads++;
      // The row is read; then it changes, and the notice arrives before the answer does.
      await poolOf(db).query(`UPDATE "Agent" SET name = 'changed' WHERE id = $1`, [agent.id]);
      await poolOf(db).query(`NOTIFY ${channel}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return "as read before the change";
    };
    await cache.lookup("racing", load, () => true);
    await cache.lookup(
      "racing",
      async () => (loads++, "fresh"),
      () => true,
    );
    expect(loads).toBe(2);
  });

  it("reads every time while it cannot hear notices, and keeps again once it hears them", async () => {
    const probe = counted("row");
    await probe.lookup("k3");
    // The listening connection is cut (a Postgres restart, a network drop).
    await poolOf(db).query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %${channel}%' AND pid <> pg_backend_pid()`,
    );
    await readsAgain(probe, "k3");
    // Back within its reconnection delay: kept again.
    await expect
      .poll(
        async () => {
          const loads = probe.loads;
          await probe.lookup("k3");
          await probe.lookup("k3");
          return probe.loads - loads;
        },
        { timeout: 10_000, interval: 200 },
      )
      .toBeLessThan(2);
  });
});

describe("change notices", () => {
  it("come from every statement that changes or deletes a token or an agent, cascades included", async () => {
    // Other test files share this database: only notices sent by the changing connection count.
    const listener = new pg.Client({ connectionString: databaseUrl });
    const changer = new pg.Client({ connectionString: databaseUrl });
    await Promise.all([listener.connect(), changer.connect()]);
    try {
      const heard: number[] = [];
      listener.on(
        "notification",
        (notice) => notice.channel === credentialsChannel.name && heard.push(notice.processId),
      );
      await listener.query(`LISTEN ${credentialsChannel.name}`);
      const changerPid = (await changer.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      const noticed = async (sql: string, values: unknown[] = []) => {
        heard.length = 0;
        await changer.query(sql, values);
        await new Promise((resolve) => setTimeout(resolve, 100));
        return heard.includes(changerPid);
      };
      const { team, agent, version } = await createTestAgent(db);
      const { id: tokenId } = await createToken({ db, teamId: team.id, name: "t", actions: ["*"] });
      expect(await noticed(`SELECT 1`)).toBe(false);
      expect(await noticed(`UPDATE "ApiToken" SET "revokedAt" = now() WHERE id = $1`, [tokenId])).toBe(true);
      expect(await noticed(`UPDATE "Agent" SET "allowAnonymous" = true WHERE id = $1`, [agent.id])).toBe(true);
      // The version's deletion sets the agent's active version to null (its foreign key's action).
      expect(await noticed(`DELETE FROM "AgentVersion" WHERE id = $1`, [version.id])).toBe(true);
      expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).activeVersionId).toBeNull();
      // The team's deletion takes its agents and tokens along (theirs).
      const other = await createTestAgent(db);
      await createToken({ db, teamId: other.team.id, name: "t", actions: ["*"] });
      expect(await noticed(`DELETE FROM "Team" WHERE id = $1`, [other.team.id])).toBe(true);
      expect(await noticed(`DELETE FROM "ApiToken" WHERE id = $1`, [tokenId])).toBe(true);
    } finally {
      await Promise.all([listener.end(), changer.end()]);
    }
  });
});

describe("the process's cache", () => {
  it("is one per process, and a change made here drops what it keeps without waiting for a notice", async () => {
    const processCache = await processCredentialCache(databaseUrl);
    expect(await processCredentialCache(databaseUrl)).toBe(processCache);
    let loads = 0;
    const lookup = () =>
      processCache.lookup(
        "here",
        async () => ++loads,
        () => true,
      );
    await lookup();
    await lookup();
    expect(loads).toBe(1);
    forgetCredentials();
    await Promise.resolve();
    await lookup();
    expect(loads).toBe(2);
  });
});

describe("tokens through the cache", () => {
  it("answers 401 on the request right after a revocation in this process, and after one elsewhere", async () => {
    const { team, agent } = await createTestAgent(db);
    const processCache = await processCredentialCache(databaseUrl);
    const authenticate = (token: string) =>
      authenticateTokenForAgent({ db, authorization: `Bearer ${token}`, slug: agent.slug, cache: processCache });

    const here = await createToken({ db, teamId: team.id, name: "here", actions: ["*"] });
    expect((await authenticate(here.token)).agent?.id).toBe(agent.id);
    await revokeToken({ db, teamId: team.id, tokenId: here.id });
    await expect(authenticate(here.token)).rejects.toThrow(AppError);

    const elsewhere = await createToken({ db, teamId: team.id, name: "elsewhere", actions: ["*"] });
    await authenticate(elsewhere.token);
    // Another process (the CLI, another web process) revokes it: its notice reaches this one.
    await poolOf(db).query(`UPDATE "ApiToken" SET "revokedAt" = now() WHERE id = $1`, [elsewhere.id]);
    await expect
      .poll(
        () =>
          authenticate(elsewhere.token).then(
            () => "accepted",
            (error: Error) => error.message,
          ),
        { timeout: 5_000 },
      )
      .toMatch(/revoked/);
  });
});
