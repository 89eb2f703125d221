// npm run bench: measures what docs/benchmarks.md reports, on this machine, and rewrites it.
// Every section runs against a throwaway embedded Postgres; numbers are from the last run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyMigrations } from "@/cli/start/migrate";
import { projectRoot } from "@/cli/start/project";
import { startThrowawayStack } from "@/cli/start/throwaway";
import { createDb } from "@/server/db";
import { benchStreams } from "./streams";
import { benchUploads } from "./uploads";

const stack = await startThrowawayStack({ withRestate: false });
try {
  await applyMigrations(stack.databaseUrl);
  const db = createDb(stack.databaseUrl);
  const sections = [await benchUploads(db), await benchStreams(db, stack.databaseUrl)];
  await db.$disconnect();
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const report = `# Benchmarks

Written by \`npm run bench\` (scripts/bench/); numbers from the last run, not edited by hand.

- Date: ${new Date().toISOString().slice(0, 10)}
- Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}
- Database: embedded Postgres 18 on the same machine

${sections.join("\n")}`;
  fs.writeFileSync(path.join(projectRoot, "docs", "benchmarks.md"), report);
  console.log("wrote docs/benchmarks.md");
} finally {
  await stack.stop();
}
