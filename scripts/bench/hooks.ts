// Hooks and host state: how soon a hook starts after an event is appended, with 100 sessions
// emitting at once, and what a kv get / put costs a tool in the sandbox. In this process: the
// worker's hook dispatcher and host-call handler on a real Postgres and real sandboxes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PrismaClient } from "@prisma/client";
import type { ToolManifest } from "@/agents/loader/manifest";
import { runTool } from "@/agents/runtime/run-tool";
import { createSandboxPool } from "@/agents/sandbox/pool";
import { createAgentVersion } from "@/server/agents/create-agent-version";
import { versionSandboxSpec } from "@/server/agents/storage";
import { poolOf } from "@/server/db";
import { appendEvents } from "@/server/events/append-events";
import { createFilesStore } from "@/server/host-state/files";
import { createHookDispatcher } from "@/server/hooks/hook-dispatcher";
import { recordSessionStart } from "@/server/sessions/record-session-start";
import { newDeliveryId, newSessionId, newTurnId } from "@/server/sessions/session-urls";
import { hostCallHandler } from "@/server/turns/host-calls";
import { zipFiles } from "@/testing/archives";
import { ms, percentile } from "./stats";

const sessions = 100;
const eventsPerSession = 20;
const kvCalls = 500;
// Each session's events this far apart in the paced run: 100 sessions × 4 events/s.
const pacedGapMs = 250;

const folder = {
  "bot/instructions.md": "Benchmark agent.",
  // The hook's first act: how long after the append (event.at, the appender's clock) it started.
  "bot/hooks/latency.ts": `import { defineHook } from "agentfold/hooks";
export default defineHook({ events: { "message.appended": async (event, ctx) => {
  const lateMs = Date.now() - Date.parse(event.at);
  await ctx.host.files.append(event.data.delta.split(" ")[0] + ".txt", lateMs + "\\n", { scope: "deployment" });
} } });
`,
  "bot/tools/kv.ts": `import { defineTool } from "agentfold/tools";
export default defineTool({ description: "times kv calls", effect: "write", async execute(input, ctx) {
  const put = [], get = [];
  for (let i = 0; i < input.n; i++) {
    let t = performance.now(); await ctx.host.kv.put("bench:" + (i % 50), { i, at: Date.now() }); put.push(performance.now() - t);
    t = performance.now(); await ctx.host.kv.get("bench:" + (i % 50)); get.push(performance.now() - t);
  }
  return { put, get };
} });
`,
};

export async function benchHooks(db: PrismaClient, databaseUrl: string): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-bench-hooks-"));
  const team = await db.team.create({ data: { slug: `bench-hooks-${Date.now().toString(36)}`, name: "Bench" } });
  const version = await createAgentVersion({
    db,
    dataDir,
    teamId: team.id,
    slug: team.slug,
    archive: await zipFiles(folder, { wrap: "bench" }),
  });
  if (version.status !== "ready")
    throw new Error(`the benchmark agent is invalid: ${JSON.stringify(version.diagnostics)}`);
  const row = await db.agentVersion.findUniqueOrThrow({ where: { id: version.id } });
  const sandboxes = createSandboxPool({
    onHostCall: hostCallHandler({ db, dataDir, sandboxes: () => sandboxes }),
  });
  const dispatcher = await createHookDispatcher({ db, databaseUrl, dataDir, sandboxes, timeoutMs: 30_000 });
  try {
    const burst = await hookLatency(db, row.agentId, row.id, { file: "burst.txt", gapMs: 0 });
    const paced = await hookLatency(db, row.agentId, row.id, { file: "paced.txt", gapMs: pacedGapMs });
    const kv = await kvFromTool(dataDir, sandboxes, {
      agentId: row.agentId,
      versionId: row.id,
      bundlePath: path.join(dataDir, row.bundlePath!),
      manifest: row.manifest as { tools: ToolManifest[] },
    });
    return `## Hooks and host state

Method: \`scripts/bench/hooks.ts\`, in one process: the worker's hook dispatcher and host-call
handler on the embedded Postgres, agent code in real sandboxes (up to 4 processes for the
version). ${sessions} sessions append ${eventsPerSession} events each, in appends of one event:
once all at once (a burst of ${sessions * eventsPerSession}), once paced at one event per session every ${pacedGapMs} ms
(${(sessions * 1000) / pacedGapMs} events/s). A hook on \`message.appended\` measures, as its first act, how long
after the event's \`at\` (the appender's clock, millisecond resolution) it started. kv: one tool call in
the sandbox making ${kvCalls} puts and ${kvCalls} gets of small values, each timed inside the tool.

| Measure | Result |
| --- | --- |
| hook start after the append, paced, ${paced.count} events | p50 ${ms(paced.p50)}, p99 ${ms(paced.p99)} |
| hook start after the append, burst, ${burst.count} events | p50 ${ms(burst.p50)}, p99 ${ms(burst.p99)} |
| kv put from a tool | p50 ${ms(kv.put50)}, p99 ${ms(kv.put99)} |
| kv get from a tool | p50 ${ms(kv.get50)}, p99 ${ms(kv.get99)} |

Hooks are delivered one event at a time per session, each in a sandbox call (and here each makes
a host call of its own), so in the burst later events wait for the sandbox processes: that
latency is the queue, and the burst's total time the dispatcher's throughput. An agent without hooks or channel events costs the worker one primary-key read per new
session and its turns nothing (the turn benchmark runs such an agent).
`;
  } finally {
    await dispatcher.close();
    await sandboxes.stopAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function hookLatency(db: PrismaClient, agentId: string, versionId: string, run: { file: string; gapMs: number }) {
  const label = run.file.replace(/\.txt$/, "");
  const ids = Array.from({ length: sessions }, () => newSessionId());
  for (const sessionId of ids) {
    await recordSessionStart(poolOf(db), {
      sessionId,
      turnId: newTurnId(),
      agentId,
      versionId,
      principal: { kind: "app", id: "bench" },
      channelId: "http",
      mode: "chat",
      continuationHash: null,
      message: "hello",
      deliveryId: newDeliveryId(),
    });
  }
  await Promise.all(
    ids.map(async (sessionId) => {
      for (let i = 0; i < eventsPerSession; i++) {
        await appendEvents({ db, sessionId, events: [{ type: "message.appended", data: { delta: `${label} ${i}` } }] });
        if (run.gapMs) await new Promise((resolve) => setTimeout(resolve, run.gapMs));
      }
    }),
  );
  const files = createFilesStore(db, { agentId });
  const expected = sessions * eventsPerSession;
  const deadline = Date.now() + 120_000;
  let samples: number[] = [];
  while (Date.now() < deadline) {
    const text = (await files.read(run.file, { scope: "deployment" })) ?? "";
    samples = text.split("\n").filter(Boolean).map(Number);
    if (samples.length >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (samples.length < expected) throw new Error(`hooks saw ${samples.length} of ${expected} events in 2 minutes`);
  return { count: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function kvFromTool(
  dataDir: string,
  sandboxes: ReturnType<typeof createSandboxPool>,
  version: { agentId: string; versionId: string; bundlePath: string; manifest: { tools: ToolManifest[] } },
) {
  const tool = version.manifest.tools.find((candidate) => candidate.name === "kv")!;
  const workspace = fs.mkdtempSync(path.join(dataDir, "ws-"));
  const result = await runTool({
    sandbox: sandboxes.forVersion(versionSandboxSpec(dataDir, version)),
    tool: { ...tool, timeoutMs: 120_000 },
    input: { n: kvCalls },
    context: {
      toolCallId: "bench",
      session: { id: "bench", channel: "http", mode: "task", auth: null, purpose: "live", dryRun: false },
      workspaceDir: workspace,
      stateRoot: workspace,
    },
    hostContext: { agentId: version.agentId, versionId: version.versionId, bundlePath: version.bundlePath },
  });
  if (!result.ok) throw new Error(`the kv tool failed: ${result.error}`);
  const { put, get } = result.output as { put: number[]; get: number[] };
  return {
    put50: percentile(put, 50),
    put99: percentile(put, 99),
    get50: percentile(get, 50),
    get99: percentile(get, 99),
  };
}
