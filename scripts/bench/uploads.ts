// Upload → validated → bundle ready, for a 20-tool agent (goal ≤ 3 s on 2 cores).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import { createAgentVersion } from "@/server/agents/create-agent-version";
import { zipFiles } from "@/testing/archives";
import { median, ms } from "./stats";

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

export async function benchUploads(db: PrismaClient): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-bench-"));
  try {
    const team = await db.team.create({ data: { slug: "bench-uploads", name: "Bench" } });
    const archive = await zipFiles(twentyToolAgent(), { wrap: "bench-agent" });
    const totals: number[] = [];
    for (let run = 0; run < runs; run++) {
      const startedAt = performance.now();
      const version = await createAgentVersion({ db, dataDir, teamId: team.id, slug: "bench-agent", archive });
      totals.push(performance.now() - startedAt);
      if (version.status !== "ready" || version.manifest?.tools.length !== 20)
        throw new Error(`bench agent did not validate: ${JSON.stringify(version.diagnostics)}`);
      console.log(`uploads: run ${run + 1}: ${ms(totals.at(-1)!)}`);
    }
    return `## Upload → validated → bundle ready (20-tool agent)

A zip of an agent folder with 20 zod-typed tools goes through \`createAgentVersion\`: safe
extraction, static discovery, esbuild bundle, sandboxed load of every module, manifest, and the
database transaction. Goal: ≤ 3 s.

| runs | median | fastest | slowest | goal met |
|---|---|---|---|---|
| ${runs} | ${ms(median(totals))} | ${ms(Math.min(...totals))} | ${ms(Math.max(...totals))} | ${median(totals) <= 3000 ? "yes" : "no"} |
`;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
