// The host_state migration on a database that already has sessions: each gets a hook cursor at
// its last event, so hooks are not handed events from before they were delivered at all.
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { applyMigrations } from "@/cli/start/migrate";
import { createDb, poolOf } from "@/server/db";
import { createTestSession } from "@/testing/fixtures";
import { freshDatabaseUrl } from "@/testing/fresh-database";

let url: string;
let db: ReturnType<typeof createDb>;

beforeAll(async () => {
  url = await freshDatabaseUrl(inject("databaseUrl"));
  db = createDb(url);
  // Back to the database as it was before this migration.
  await poolOf(db).query(`DROP TABLE hook_cursors, agent_files, agent_kv`);
  await poolOf(db).query(`DELETE FROM _prisma_migrations WHERE migration_name LIKE '%\\_host\\_state'`);
}, 120_000);
afterAll(() => db.$disconnect());

it("seeds a cursor at nextIndex - 1 for every existing session", async () => {
  const quiet = await createTestSession(db);
  const busy = await createTestSession(db);
  await poolOf(db).query(`UPDATE sessions SET "nextIndex" = 7 WHERE id = $1`, [busy.id]);
  expect(await applyMigrations(url)).toMatch(/^applied/);
  const { rows } = await poolOf(db).query<{ sessionId: string; deliveredIndex: number; owner: string | null }>(
    `SELECT "sessionId", "deliveredIndex", owner FROM hook_cursors ORDER BY "deliveredIndex"`,
  );
  expect(rows).toEqual([
    { sessionId: quiet.id, deliveredIndex: -1, owner: null },
    { sessionId: busy.id, deliveredIndex: 6, owner: null },
  ]);
}, 120_000);
