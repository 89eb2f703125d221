// `prisma migrate deploy` splits a migration script at every semicolon, comments included, and
// tracks quotes on its own without knowing dollar quoting: a semicolon in a comment or inside a
// function body, or an odd number of apostrophes in a body, breaks the migration on every new
// instance (and, since Vitest's global setup migrates, every test run).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "./project";

const migrationsDir = path.join(projectRoot, "prisma", "migrations");
const migrations = fs
  .readdirSync(migrationsDir)
  .filter((name) => fs.existsSync(path.join(migrationsDir, name, "migration.sql")));

describe("migrations", () => {
  it.each(migrations)("%s: survives Prisma's statement splitting", (name) => {
    const sql = fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8");
    for (const comment of sql.split("\n").filter((line) => line.trim().startsWith("--")))
      expect(comment).not.toContain(";");
    const bodies = sql.split("$$").filter((_, i) => i % 2 === 1);
    for (const body of bodies) {
      expect(body).not.toContain(";");
      expect(body.split("'").length % 2, "apostrophes in pairs").toBe(1);
    }
  });
});
