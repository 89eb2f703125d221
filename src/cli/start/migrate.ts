// Applies pending migrations with `prisma migrate deploy` (the only migration command that
// works on our machines; see docs/development.md).
import { spawn } from "node:child_process";
import { inheritedEnvironment } from "@/env";
import { packageBin, projectRoot } from "./project";

// The CLI's wasm schema engine leaves a 10 s timer running after its work is done, so the
// process lingers for 10 s on every start. Its final line means the work is committed; from
// then on we stop waiting for it.
const finished = /All migrations have been successfully applied\.|No pending migrations to apply\./;

export async function applyMigrations(databaseUrl: string): Promise<string> {
  const child = spawn(process.execPath, [packageBin("prisma", "build/index.js"), "migrate", "deploy"], {
    cwd: projectRoot,
    env: { ...inheritedEnvironment(), DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!finished.test(output)) return;
      child.kill("SIGTERM");
      const count = output.match(/(\d+) migrations? found/)?.[1] ?? "?";
      resolve(output.includes("No pending migrations") ? "up to date" : `applied (${count} in total)`);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) => {
      if (!finished.test(output)) reject(new Error(`Migrations failed (exit code ${code}):\n${output}`));
    });
  });
}
