// Applies pending migrations with `prisma migrate deploy` (the only migration command that
// works on our machines; see docs/development.md).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { inheritedEnvironment } from "@/env";
import { packageBin, projectRoot } from "./project";

const execFileAsync = promisify(execFile);

export async function applyMigrations(databaseUrl: string): Promise<string> {
  const prisma = packageBin("prisma", "build/index.js");
  try {
    const { stdout } = await execFileAsync(process.execPath, [prisma, "migrate", "deploy"], {
      cwd: projectRoot,
      env: { ...inheritedEnvironment(), DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    });
    const applied = stdout.match(/(\d+) migrations? found/);
    return stdout.includes("No pending migrations")
      ? "up to date"
      : `applied (${applied?.[1] ?? "?"} in total)`;
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string };
    throw new Error(`Migrations failed:\n${output.stdout ?? ""}${output.stderr ?? ""}`);
  }
}
