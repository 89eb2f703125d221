// A new, migrated database on the test Postgres, for tests that need an empty instance (the
// first account to sign up becomes admin: the shared test database already has users).
import crypto from "node:crypto";
import pg from "pg";
import { applyMigrations } from "@/cli/start/migrate";

export async function freshDatabaseUrl(serverUrl: string): Promise<string> {
  const name = `fresh_${crypto.randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  return url.toString();
}
