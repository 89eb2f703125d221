// npm run bench: measures what docs/benchmarks.md reports, on this machine, and rewrites it.
// `npm run bench -- turns` (or cluster, uploads, streams, sandbox, upload-memory, hooks, logs, dev) runs only those sections and prints them
// without touching the file. Numbers are from the last full run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyMigrations } from "@/cli/start/migrate";
import { projectRoot } from "@/cli/start/project";
import { startThrowawayStack } from "@/cli/start/throwaway";
import { createDb } from "@/server/db";
import { benchCluster } from "./cluster";
import { benchDev } from "./dev";
import { benchHooks } from "./hooks";
import { benchLogs } from "./logs";
import { benchSandbox } from "./sandbox";
import { benchStreams } from "./streams";
import { benchTurns } from "./turns";
import { benchUploadMemory } from "./upload-memory";
import { benchUploads } from "./uploads";

const comparisonsMarker = "<!-- comparisons: kept by npm run bench -->";
const all = ["uploads", "streams", "turns", "cluster", "sandbox", "upload-memory", "hooks", "logs", "dev"] as const;
const chosen = process.argv
  .slice(2)
  .filter((name): name is (typeof all)[number] => (all as readonly string[]).includes(name));
const selected = chosen.length > 0 ? chosen : [...all];

const sections: string[] = [];
// Turns first: the in-process sections leave this process with a large heap and 1,000 streams'
// worth of garbage, and the turn clients share its two cores with the stack they measure.
const turns = selected.includes("turns") ? await benchTurns() : undefined;
// Whole stacks as well, each started and stopped before the next section.
const cluster = selected.includes("cluster") ? await benchCluster() : undefined;
if (["uploads", "streams", "hooks", "logs"].some((name) => selected.includes(name as (typeof all)[number]))) {
  // The event log and upload sections need only a database.
  const stack = await startThrowawayStack({ withRestate: false });
  try {
    await applyMigrations(stack.databaseUrl);
    const db = createDb(stack.databaseUrl);
    if (selected.includes("uploads")) sections.push(await benchUploads(db));
    if (selected.includes("streams")) sections.push(await benchStreams(db, stack.databaseUrl));
    if (selected.includes("hooks")) sections.push(await benchHooks(db, stack.databaseUrl));
    if (selected.includes("logs")) sections.push(await benchLogs(db));
    await db.$disconnect();
  } finally {
    await stack.stop();
  }
}
if (turns) sections.push(turns);
if (cluster) sections.push(cluster);
if (selected.includes("upload-memory")) sections.push(await benchUploadMemory());
if (selected.includes("sandbox")) sections.push(await benchSandbox());
if (selected.includes("dev")) sections.push(await benchDev());

if (selected.length < all.length) {
  console.log(sections.join("\n"));
} else {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const report = `# Benchmarks

Written by \`npm run bench\` (scripts/bench/); numbers from the last run, not edited by hand.

- Date: ${new Date().toISOString().slice(0, 10)}
- Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}
- Database: embedded Postgres 18 on the same machine

${sections.join("\n")}`;
  // Comparisons between revisions are run by hand (docs/benchmarks.md says how) and kept.
  const file = path.join(projectRoot, "docs", "benchmarks.md");
  const previous = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  const kept = previous.indexOf(comparisonsMarker);
  fs.writeFileSync(file, kept === -1 ? report : `${report.trimEnd()}\n\n${previous.slice(kept)}`);
  console.log("wrote docs/benchmarks.md");
}
