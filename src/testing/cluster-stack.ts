// `agentfold start` in cluster mode as a real child process (3 Restate nodes, 2 workers, 2 webs,
// one Postgres), with an agent deployed and a token made, for the cluster tests and the bench
// (which also starts single-node stacks through it, with AGENTFOLD_CLUSTER=0).
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { sessionEventSchema, type SessionEvent } from "@/agents/sdk/events";
import { clusterPortList } from "@/cli/start/cluster-ports";
import { embeddedDatabaseUrl } from "@/cli/start/postgres";
import { canListen, releasePorts, reservePorts } from "@/cli/start/ports";
import { parseEnv } from "@/env";
import { writeFiles } from "./folders";
import { type StackPorts, makeDataDir, spawnSupervisor, stackCli, type SupervisorProcess } from "./supervisor-process";

/** A read tool, and a write tool that appends each of its runs (call id, when it started) to the
 * session's kv list `runs:<session>`. */
export const clusterAgent = {
  "package.json": '{"name":"cluster-tests"}',
  "bot/instructions.md": "You look up orders and count visits.",
  "bot/tools/lookup.ts": `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({ description: "Looks up an order", effect: "read",
  inputSchema: z.object({ orderId: z.string() }), async execute({ orderId }) { return { orderId, status: "shipped" }; } });
`,
  "bot/tools/bump.ts": `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({ description: "Counts a visit", effect: "write", inputSchema: z.object({}),
  async execute(_input, ctx) {
    const key = "runs:" + ctx.session.id;
    const startedAt = Date.now();
    for (;;) {
      const current = await ctx.host.kv.entry(key);
      try {
        const runs = (current?.value as unknown[]) ?? [];
        await ctx.host.kv.put(key, [...runs, { callId: ctx.toolCallId, startedAt }], { ifVersion: current?.version ?? 0 });
        return { visits: runs.length + 1 };
      } catch (error) {
        if ((error as { code?: string }).code !== "conflict") throw error;
      }
    }
  } });
`,
};

export type ClusterStack = {
  supervisor: SupervisorProcess;
  /** The round-robin proxy on PORT. */
  baseUrl: string;
  /** Each web process's own address. */
  webUrls: string[];
  dir: string;
  ports: StackPorts;
  databaseUrl: string;
  token: string;
  cli: (...args: string[]) => Promise<string>;
  db: pg.Pool;
  stop: () => Promise<number | null>;
};

export const slug = "cluster";

/**
 * A port base whose derived ports (cluster-ports.ts) and the 6 single-node ports (taken from the
 * same block, at B+500…) are all free: random blocks of 1,000 in 10000–19999, below getFreePort's
 * range (so its scattered picks never spoil a block), leaving out the default base a developer's
 * own cluster may be using.
 */
export async function freeClusterPorts(): Promise<{ base: number; ports: StackPorts }> {
  const bases = Array.from({ length: 10 }, (_, i) => 10_000 + 1_000 * i).filter(
    (b) => b !== parseEnv({}).AGENTFOLD_CLUSTER_PORT_BASE,
  );
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = bases[Math.floor(Math.random() * bases.length)]!;
    const names = ["PORT", "WORKER_PORT", "POSTGRES_PORT", "RESTATE_INGRESS_PORT", "RESTATE_ADMIN_PORT"] as const;
    const ports = Object.fromEntries([
      ...names.map((name, i) => [name, String(base + 500 + i)]),
      ["RESTATE_NODE_PORT", String(base + 510)],
    ]) as StackPorts;
    // Room for the most workers cluster mode runs (AGENTFOLD_CLUSTER_WORKERS).
    const all = [...clusterPortList(base, 9).map((p) => p.port), ...Object.values(ports).map(Number)];
    // Reserved first, as getFreePort's ports are: no other test's stack takes one of them.
    if (!reservePorts(all)) continue;
    if ((await Promise.all(all.map((port) => canListen(port)))).every(Boolean)) return { base, ports };
    releasePorts(all);
  }
  throw new Error("found no free block of cluster ports");
}

export async function startClusterStack(env: Record<string, string> = {}, readyTimeoutMs = 300_000) {
  const dir = makeDataDir();
  const { base, ports } = await freeClusterPorts();
  const supervisor = spawnSupervisor({
    ...ports,
    AGENTFOLD_DATA_DIR: dir,
    AGENTFOLD_CLUSTER: "1",
    AGENTFOLD_CLUSTER_PORT_BASE: String(base),
    ...env,
  });
  try {
    const [, baseUrl] = await supervisor.waitForOutput(/Agentfold is ready: open (http:\/\/\S+)/, readyTimeoutMs);
    const cli = stackCli(dir, ports);
    await cli("team", "create", "--team", slug);
    await cli("deploy", "--dir", writeFiles(path.join(dir, "agent"), clusterAgent), "--team", slug, "--slug", slug);
    const token = await cli("token", "create", "--team", slug, "--actions", "*", "--name", "tests");
    const webs = [...supervisor.output().matchAll(/^agentfold: web-\d +(http:\/\/\S+)/gm)].map((m) => m[1]!);
    // Single-node (AGENTFOLD_CLUSTER=0 in `env`, for the bench's comparison): its one web.
    const webUrls = webs.length > 0 ? webs : [baseUrl!];
    const databaseUrl = embeddedDatabaseUrl(dir, Number(ports.POSTGRES_PORT))!;
    const db = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    const stack: ClusterStack = {
      supervisor,
      baseUrl: baseUrl!,
      webUrls,
      dir,
      ports,
      databaseUrl,
      token,
      cli,
      db,
      stop: async () => {
        await db.end();
        const code = await supervisor.stop("SIGTERM");
        fs.rmSync(dir, { recursive: true, force: true });
        return code;
      },
    };
    return stack;
  } catch (error) {
    await supervisor.stop("SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A /v1 answer: the fields the tests read from a 200, and whatever else it says (shown on failure). */
export type Answer = { sessionId: string; continuationToken: string; [field: string]: unknown };

export async function request(
  url: string,
  token: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text.startsWith("{") ? JSON.parse(text) : { text } };
}

/** A session's whole log, as GET …/events answers it, each line parsed with the event schema. */
export async function sessionLog(url: string, token: string, sessionId: string): Promise<SessionEvent[]> {
  const response = await fetch(`${url}/${slug}/v1/session/${sessionId}/events`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`events: ${response.status} ${text}`);
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => sessionEventSchema.parse(JSON.parse(line)));
}

/** What the write tool recorded of its runs in a session. */
export type WriteRun = { callId: string; startedAt: number };

export const isTurnEnd = (event: SessionEvent) => event.type === "turn.completed" || event.type === "turn.failed";
