import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { applyMigrations } from "./migrate";

describe("applyMigrations", () => {
  it("has created the identity tables, and a second run changes nothing", async () => {
    expect(await applyMigrations(inject("databaseUrl"))).toBe("up to date");
    const client = new pg.Client({ connectionString: inject("databaseUrl") });
    await client.connect();
    try {
      const { rows } = await client.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
      );
      expect(rows.map((row) => row.table_name)).toEqual(
        expect.arrayContaining(["Account", "Membership", "Team", "User", "auth_sessions", "verification_tokens"]),
      );
      const roles = await client.query('select unnest(enum_range(null::"Role"))::text as role');
      expect(roles.rows.map((row) => row.role)).toEqual(["owner", "admin", "member", "viewer"]);
    } finally {
      await client.end();
    }
  });

  it("reports a failure with Prisma's own explanation", async () => {
    await expect(applyMigrations("postgresql://nobody:x@127.0.0.1:9/none")).rejects.toThrow(
      /Migrations failed[\s\S]+Can't reach database server/,
    );
  });
});
