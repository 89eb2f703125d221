// The sandbox's own cost: start-up, a call, and egress through the proxy, inside bubblewrap and
// (for comparison) unisolated, on the same agent.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { loadAgentFolder } from "@/agents/loader/load-agent";
import { resolveIsolation } from "@/agents/sandbox/isolation";
import type { ToolCallContext } from "@/agents/sandbox/protocol";
import { createSandbox } from "@/agents/sandbox/sandbox";
import { writeFiles } from "@/testing/folders";
import { median, ms, percentile } from "./stats";

const starts = 10;
const calls = 500;
const fetches = 100;

const tool = (name: string, body: string) => `import { defineTool } from "agentfold/tools";
export default defineTool({ description: "${name}", effect: "read", async execute(input) { ${body} } });
`;

export async function benchSandbox(): Promise<string> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-bench-sandbox-"));
  const server = http.createServer((_, response) => response.end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    writeFiles(path.join(root, "agent"), {
      "bot/instructions.md": "x",
      "bot/tools/echo.ts": tool("echo", "return input;"),
      "bot/tools/get.ts": tool("get", "return (await fetch(input.url)).text();"),
    });
    const loaded = await loadAgentFolder({ folderDir: path.join(root, "agent"), outDir: path.join(root, "bundle") });
    const workspace = path.join(root, "ws");
    const context: ToolCallContext = {
      toolCallId: "c",
      session: { id: "s", channel: "http", mode: "chat", auth: null, purpose: "live", dryRun: false },
      workspaceDir: workspace,
      stateRoot: workspace,
    };
    const rows: string[] = [];
    for (const kind of ["bubblewrap", "unisolated"] as const) {
      const make = () =>
        createSandbox({
          bundlePath: loaded.bundlePath!,
          writableDirs: [workspace],
          isolation: resolveIsolation(kind),
          egress: { kind: "domains", domains: ["bench.test"] },
          resolveEgress: async () => ["127.0.0.1"],
        });
      const startTimes: number[] = [];
      for (let i = 0; i < starts; i++) {
        const sandbox = make();
        const started = performance.now();
        await sandbox.call("runTool", { file: "bot/tools/echo.ts", input: {}, context });
        startTimes.push(performance.now() - started);
        await sandbox.stop();
      }
      const sandbox = make();
      const callTimes: number[] = [];
      for (let i = 0; i < calls; i++) {
        const started = performance.now();
        await sandbox.call("runTool", { file: "bot/tools/echo.ts", input: { i }, context });
        callTimes.push(performance.now() - started);
      }
      const fetchTimes: number[] = [];
      for (let i = 0; i <= fetches; i++) {
        const started = performance.now();
        const result = await sandbox.call("runTool", {
          file: "bot/tools/get.ts",
          input: { url: `http://bench.test:${port}/` },
          context,
        });
        if (!result.ok) throw new Error(`egress failed: ${result.error}`);
        fetchTimes.push(performance.now() - started);
      }
      await sandbox.stop();
      const [first, ...rest] = fetchTimes;
      rows.push(
        `| ${kind} | ${ms(median(startTimes))} | ${ms(median(callTimes))} (p99 ${ms(percentile(callTimes, 99))}) | ${ms(first!)} | ${ms(median(rest))} |`,
      );
      console.log(`sandbox: ${rows.at(-1)}`);
    }
    return `## The sandbox

One agent version's sandbox, driven directly (no turn): start-up is a fresh process's first tool
call (bwrap, Node, the bundle, the runner's egress relay), a call is an echo tool's round trip
over IPC (median of ${calls}), and a fetch goes through the egress proxy to a local HTTP server
(its first one loads undici; then the median of ${fetches}). \`unisolated\` is the same process
without bubblewrap (AGENTFOLD_SANDBOX=unisolated), for comparison.

| Isolation | Start-up (median of ${starts}) | Call | First fetch | Fetch |
|---|---|---|---|---|
${rows.join("\n")}
`;
  } finally {
    server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
