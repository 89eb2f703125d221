// What agents' logs cost (docs/logs.md): a tool call in a bubblewrapped sandbox that prints 0, 1
// or 20 lines, each line going to a real writer on Postgres; how fast the writer stores lines;
// and how long a line takes from console.log to GET /v1/logs's query.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import { loadAgentFolder } from "@/agents/loader/load-agent";
import { resolveIsolation } from "@/agents/sandbox/isolation";
import type { ToolCallContext } from "@/agents/sandbox/protocol";
import { createSandbox } from "@/agents/sandbox/sandbox";
import { createAgentLogWriter } from "@/server/logging/agent-logs";
import { findAgentLogs } from "@/server/logging/find-agent-logs";
import { processLogger } from "@/server/logging/logger";
import { sandboxLogSink } from "@/server/logging/sandbox-log-sink";
import { writeFiles } from "@/testing/folders";
import { ms, percentile } from "./stats";

const calls = 400;
// The writer's buffer holds 10,000 lines not yet stored: a burst of that many, at once.
const storedLines = 10_000;
const latencySamples = 40;

export async function benchLogs(db: PrismaClient): Promise<string> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-bench-logs-"));
  const team = await db.team.create({ data: { name: "Bench logs", slug: `bench-logs-${Date.now()}` } });
  const agent = await db.agent.create({ data: { teamId: team.id, slug: `bench-logs-${Date.now()}`, name: "logs" } });
  const writer = createAgentLogWriter({ db, maxLinesPerAgent: 1_000_000 });
  const sink = sandboxLogSink(writer, processLogger());
  try {
    writeFiles(path.join(root, "agent"), {
      "bot/instructions.md": "x",
      "bot/tools/print.ts": `import { defineTool } from "agentfold/tools";
export default defineTool({ description: "prints", effect: "read", async execute(input) {
  for (let i = 0; i < input.lines; i++) console.log("order", input.i, "line", i, { status: "shipped" });
  return input.i;
} });
`,
    });
    const loaded = await loadAgentFolder({ folderDir: path.join(root, "agent"), outDir: path.join(root, "bundle") });
    const workspace = path.join(root, "ws");
    const context: ToolCallContext = {
      toolCallId: "c",
      session: { id: "s", channel: "http", mode: "chat", auth: null, purpose: "live", dryRun: false },
      workspaceDir: workspace,
      stateRoot: workspace,
    };
    const sandbox = createSandbox({
      bundlePath: loaded.bundlePath!,
      writableDirs: [workspace],
      isolation: resolveIsolation("bubblewrap"),
      onCallLog: sink.onCallLog,
    });
    const hostContext = { agentId: agent.id, versionId: "v", bundlePath: loaded.bundlePath! };
    const call = (input: object) =>
      sandbox.call("runTool", { file: "bot/tools/print.ts", input, context }, { hostContext });
    for (let i = 0; i < 100; i++) await call({ i, lines: 1 });
    const rows: string[] = [];
    // Alternating, so drift on the machine falls on every variant alike.
    const times: Record<number, number[]> = { 0: [], 1: [], 20: [] };
    for (let i = 0; i < calls; i++)
      for (const lines of [0, 1, 20]) {
        const started = performance.now();
        await call({ i, lines });
        times[lines]!.push(performance.now() - started);
      }
    for (const lines of [0, 1, 20])
      rows.push(
        `| tool call printing ${lines} line${lines === 1 ? "" : "s"} | ${ms(percentile(times[lines]!, 50))} | ${ms(percentile(times[lines]!, 99))} |`,
      );
    await sandbox.stop();
    await writer.flush();

    const storeStarted = performance.now();
    for (let i = 0; i < storedLines; i++)
      writer.write({
        agentId: agent.id,
        level: "info",
        source: "tool",
        name: "bot/tools/print.ts",
        message: `line ${i}`,
      });
    await writer.flush();
    const perSecond = storedLines / ((performance.now() - storeStarted) / 1000);
    const stored = await db.agentLog.count({ where: { agentId: agent.id, message: { startsWith: "line " } } });
    if (stored !== storedLines) throw new Error(`stored ${stored} of ${storedLines} lines`);

    const latencies: number[] = [];
    for (let i = 0; i < latencySamples; i++) {
      const { nextCursor } = await findAgentLogs(db, agent.id, { limit: 1 });
      const started = performance.now();
      writer.write({ agentId: agent.id, level: "info", source: "tool", message: `probe ${i}` });
      while ((await findAgentLogs(db, agent.id, { cursor: nextCursor, limit: 10 })).lines.length === 0)
        await new Promise((resolve) => setTimeout(resolve, 5));
      latencies.push(performance.now() - started);
    }
    return `## Agent logs

A tool call in a bubblewrapped sandbox (${calls} calls of each, alternating), every printed line
handed to the log writer on Postgres; then the writer alone.

| Call | p50 | p99 |
| --- | --- | --- |
${rows.join("\n")}

- Stored: ${storedLines.toLocaleString("en")} lines written at once reach the table at ${Math.round(perSecond).toLocaleString("en")} lines/s (one statement per flush).
- A line from write() to a poll's answer: p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))} (the writer flushes every 200 ms).
`;
  } finally {
    await writer.close();
    await db.agent.delete({ where: { id: agent.id } });
    await db.team.delete({ where: { id: team.id } });
    fs.rmSync(root, { recursive: true, force: true });
  }
}
