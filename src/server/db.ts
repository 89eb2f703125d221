// The one Prisma client of a process, on the pg driver adapter (no native query engine). Its
// connection pool is also reachable as a plain pg.Pool for the event log's hot paths, where
// Prisma's per-query overhead costs about 4× the query itself (docs/benchmarks.md).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import pg from "pg";
import { env } from "@/env";
import { AppError } from "@/server/errors";
import { logWarning } from "@/server/logging/logger";

let client: PrismaClient | undefined;
const pools = new WeakMap<PrismaClient, pg.Pool>();

export function createDb(databaseUrl: string): PrismaClient {
  // allowExitOnIdle: an idle pool must not keep a finished CLI or script alive.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, allowExitOnIdle: true });
  // An idle connection that dies (Postgres restarting) is dropped by the pool; without a
  // listener the 'error' event would crash the process.
  pool.on("error", (error) => logWarning(`database connection lost: ${error.message}`));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  pools.set(prisma, pool);
  return prisma;
}

/** The pg pool under a client made by createDb. */
export function poolOf(db: PrismaClient): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error("this Prisma client was not made by createDb");
  return pool;
}

export function db(): PrismaClient {
  if (!client) {
    const url = env().DATABASE_URL;
    if (!url) throw new AppError("unavailable", "DATABASE_URL is not set; start Agentfold with `npm start`.");
    client = createDb(url);
  }
  return client;
}

/**
 * Runs `work` in one transaction on one pooled connection, with plain SQL: the hot paths of a
 * turn (start, follow-up, finish) are a few statements each, where Prisma's per-query cost
 * would dominate.
 */
export async function pgTransaction<T>(db: PrismaClient, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await poolOf(db).connect();
  let isBroken = false;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    // A connection that cannot even roll back is dropped rather than handed out again.
    await client.query("ROLLBACK").catch(() => (isBroken = true));
    throw error;
  } finally {
    client.release(isBroken);
  }
}
