// host.kv: JSON values by key, one namespace per agent (every session and version of it), in
// Postgres so that they survive restarts and new versions and every worker sees the same ones.
// Puts are last-writer-wins per key; `ifVersion` makes one a compare-and-set.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import { maxPgInteger, unstorableProblem } from "@/server/validation/schema";
import { serializeJsonValue } from "./json-value";
import { byteLength, count, quoted } from "./text";
import type { HostKv, JsonValue, KvEntry, KvPutOptions } from "./types";

export const kvLimits = {
  keyBytes: 512,
  valueBytes: 1024 * 1024,
  keysPerAgent: 10_000,
  /** Keys one list call returns, the first in byte order: a longer listing takes prefixes. */
  listedKeys: 1000,
};

export function createKvStore(db: PrismaClient, agentId: string): HostKv {
  const pool = poolOf(db);
  return {
    async get(key) {
      return (await readEntry(key))?.value;
    },
    entry: readEntry,
    async put(key, value, options) {
      assertKey(key);
      const ifVersion = versionOption(key, options);
      const json = serializeJsonValue(value, `host.kv value for ${quoted(key)}`);
      const size = byteLength(json);
      if (size > kvLimits.valueBytes) {
        throw new AppError(
          "payload_too_large",
          `host.kv value for ${quoted(key)} is ${count(size)} bytes as JSON; the limit is 1 MiB (${count(kvLimits.valueBytes)} bytes)`,
        );
      }
      const { rows } = await pool
        .query<{ version: number }>({
          // One statement, so concurrent puts are safe: the row lock of ON CONFLICT orders them,
          // and the WHERE of DO UPDATE re-checks ifVersion against the row as it is then. A new key
          // is counted against the limit (a CASE, so the count runs only for new keys); puts of new
          // keys that race may pass the limit by as many as are in flight.
          text: `INSERT INTO agent_kv ("agentId", key, value, version, "updatedAt")
                 SELECT $1::text, $2::text, $3::jsonb, 1, now() AT TIME ZONE 'UTC'
                 WHERE CASE
                   WHEN EXISTS (SELECT 1 FROM agent_kv WHERE "agentId" = $1 AND key = $2) THEN true
                   WHEN coalesce($4::int, 0) <> 0 THEN false
                   ELSE (SELECT count(*) FROM agent_kv WHERE "agentId" = $1) < $5
                 END
                 ON CONFLICT ("agentId", key) DO UPDATE
                   SET value = EXCLUDED.value, version = agent_kv.version + 1, "updatedAt" = EXCLUDED."updatedAt"
                   WHERE $4::int IS NULL OR agent_kv.version = $4::int
                 RETURNING version`,
          values: [agentId, key, json, ifVersion ?? null, kvLimits.keysPerAgent],
        })
        .catch(agentGone);
      if (rows[0]) return { version: rows[0].version };
      throw await refusal(key, ifVersion);
    },
    async delete(key) {
      assertKey(key);
      await pool.query(`DELETE FROM agent_kv WHERE "agentId" = $1 AND key = $2`, [agentId, key]);
    },
    async list(prefix = "") {
      assertPrefix(prefix);
      const { rows } = await pool.query<{ key: string }>(
        `SELECT key FROM agent_kv WHERE "agentId" = $1 AND starts_with(key, $2)
         ORDER BY key COLLATE "C" LIMIT $3`,
        [agentId, prefix, kvLimits.listedKeys],
      );
      return rows.map((row) => row.key);
    },
  };

  async function readEntry(key: string): Promise<KvEntry | undefined> {
    assertKey(key);
    const { rows } = await pool.query<{ value: JsonValue; version: number }>(
      `SELECT value, version FROM agent_kv WHERE "agentId" = $1 AND key = $2`,
      [agentId, key],
    );
    return rows[0];
  }

  /** Why a put wrote nothing, read after the fact: the version it met, or the key limit. */
  async function refusal(key: string, ifVersion: number | undefined): Promise<AppError> {
    const { rows } = await pool.query<{ version: number | null; keys: number }>(
      `SELECT (SELECT version FROM agent_kv WHERE "agentId" = $1 AND key = $2) AS version,
              (SELECT count(*)::int FROM agent_kv WHERE "agentId" = $1) AS keys`,
      [agentId, key],
    );
    const found = rows[0]?.version ?? 0;
    if (ifVersion !== undefined && found !== ifVersion) {
      const stored = found === 0 ? "the key is absent (version 0)" : `the stored version is ${found}`;
      return new AppError("conflict", `host.kv put ${quoted(key)}: ifVersion ${ifVersion} does not match; ${stored}`);
    }
    if (found === 0 && (rows[0]?.keys ?? 0) >= kvLimits.keysPerAgent) {
      return new AppError(
        "payload_too_large",
        `host.kv holds ${count(kvLimits.keysPerAgent)} keys for this agent, the limit; ${quoted(key)} would be a new one (delete keys first, or overwrite existing ones)`,
      );
    }
    return new AppError("conflict", `host.kv put ${quoted(key)}: the key changed while it was written; try again`);
  }
}

function assertKey(key: unknown): asserts key is string {
  if (typeof key !== "string") throw new AppError("invalid_input", "host.kv: a key must be a string");
  const size = byteLength(key);
  if (size === 0 || size > kvLimits.keyBytes) {
    throw new AppError(
      "invalid_input",
      `host.kv key ${quoted(key)} is ${count(size)} bytes of UTF-8; keys are 1 to ${kvLimits.keyBytes} bytes`,
    );
  }
  const problem = unstorableProblem(key);
  if (problem) throw new AppError("invalid_input", `host.kv key ${quoted(key)} ${problem}`);
}

function assertPrefix(prefix: unknown): asserts prefix is string {
  if (typeof prefix !== "string") throw new AppError("invalid_input", "host.kv: a list prefix must be a string");
  if (prefix === "") return;
  assertKey(prefix);
}

function versionOption(key: string, options: KvPutOptions | undefined): number | undefined {
  const ifVersion = options?.ifVersion;
  if (ifVersion === undefined) return undefined;
  if (!Number.isSafeInteger(ifVersion) || ifVersion < 0 || ifVersion > maxPgInteger) {
    throw new AppError(
      "invalid_input",
      `host.kv put ${quoted(key)}: ifVersion must be a whole number ≥ 0 (0: only if absent), not ${String(ifVersion)}`,
    );
  }
  return ifVersion;
}

/** A put whose agent was deleted meanwhile fails its foreign key. */
function agentGone(error: unknown): never {
  if ((error as { code?: string }).code === "23503")
    throw new AppError("not_found", "host.kv: the agent no longer exists");
  throw error;
}
