// npm run db:migration -- <name>
// Creates prisma/migrations/<timestamp>_<name>/migration.sql from the difference between the
// schema as of the last migration (a stored snapshot) and prisma/schema.prisma. `prisma migrate
// dev` cannot run on our machines; `migrate diff` against a throwaway Postgres can.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { packageBin, projectRoot } from "@/cli/start/project";
import { startThrowawayStack } from "@/cli/start/throwaway";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:migration -- <name>   (name: lowercase letters, digits, _)");
  process.exit(2);
}

const migrationsDir = path.join(projectRoot, "prisma", "migrations");
const snapshot = path.join(migrationsDir, "schema.snapshot.prisma");
const schema = path.join(projectRoot, "prisma", "schema.prisma");

const stack = await startThrowawayStack({ withRestate: false });
try {
  const from = fs.existsSync(snapshot) ? ["--from-schema-datamodel", snapshot] : ["--from-empty"];
  const sql = execFileSync(
    process.execPath,
    [packageBin("prisma", "build/index.js"), "migrate", "diff", ...from, "--to-schema-datamodel", schema, "--script"],
    { cwd: projectRoot, env: { ...process.env, DATABASE_URL: stack.databaseUrl }, encoding: "utf8" },
  );
  if (/^-- This is an empty migration\.\s*$/.test(sql.trim())) {
    console.log("No schema changes since the last migration; nothing written.");
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join(migrationsDir, `${stamp}_${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "migration.sql"), sql);
    fs.copyFileSync(schema, snapshot);
    const lock = path.join(migrationsDir, "migration_lock.toml");
    if (!fs.existsSync(lock)) fs.writeFileSync(lock, 'provider = "postgresql"\n');
    console.log(`Wrote ${path.relative(projectRoot, dir)}/migration.sql; review it, then commit it with the snapshot.`);
  }
} finally {
  await stack.stop();
}
