// npm run bench: measures what docs/benchmarks.md reports, on this machine, and rewrites it.
//   upload → validated → bundle ready, for a 20-tool agent (goal ≤ 3 s on 2 cores)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyMigrations } from "@/cli/start/migrate";
import { projectRoot } from "@/cli/start/project";
import { startThrowawayStack } from "@/cli/start/throwaway";
import { createDb } from "@/server/db";
import { createAgentVersion } from "@/server/agents/create-agent-version";
import { zipFiles } from "@/testing/archives";

const runs = 5;

function twentyToolAgent(): Record<string, string> {
  const files: Record<string, string> = {
    "package.json": '{"name":"bench-agent"}',
    "bot/instructions.md": "You answer questions about orders.",
  };
  for (let i = 0; i < 20; i++) {
    files[`bot/tools/tool_${i}.ts`] = `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({
  description: "Tool number ${i}: looks up order data",
  effect: ${i % 2 ? '"read"' : '"write"'},
  inputSchema: z.object({ orderId: z.string(), limit: z.number().int().max(100).optional() }),
  async execute({ orderId, limit }) { return { orderId, limit: limit ?? 10, tool: ${i} }; },
});
`;
  }
  return files;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${Math.round(value)} ms`;

const stack = await startThrowawayStack({ withRestate: false });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-bench-"));
try {
  await applyMigrations(stack.databaseUrl);
  const db = createDb(stack.databaseUrl);
  const team = await db.team.create({ data: { slug: "bench", name: "Bench" } });
  const archive = await zipFiles(twentyToolAgent(), { wrap: "bench-agent" });
  const totals: number[] = [];
  for (let run = 0; run < runs; run++) {
    const startedAt = performance.now();
    const version = await createAgentVersion({ db, dataDir, teamId: team.id, slug: "bench-agent", archive });
    totals.push(performance.now() - startedAt);
    if (version.status !== "ready" || version.manifest?.tools.length !== 20) throw new Error(`bench agent did not validate: ${JSON.stringify(version.diagnostics)}`);
    process.stdout.write(`run ${run + 1}: ${ms(totals.at(-1)!)}\n`);
  }
  await db.$disconnect();
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const report = `# Benchmarks

Written by \`npm run bench\` (scripts/bench.ts); numbers from the last run, not edited by hand.

- Date: ${new Date().toISOString().slice(0, 10)}
- Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}

## Upload → validated → bundle ready (20-tool agent)

A zip of an agent folder with 20 zod-typed tools goes through \`createAgentVersion\`: safe
extraction, static discovery, esbuild bundle, sandboxed load of every module, manifest, and the
database transaction. Goal: ≤ 3 s.

| runs | median | fastest | slowest | goal met |
|---|---|---|---|---|
| ${runs} | ${ms(median(totals))} | ${ms(Math.min(...totals))} | ${ms(Math.max(...totals))} | ${median(totals) <= 3000 ? "yes" : "no"} |
`;
  fs.writeFileSync(path.join(projectRoot, "docs", "benchmarks.md"), report);
  console.log(`median ${ms(median(totals))}; wrote docs/benchmarks.md`);
} finally {
  await stack.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
