// Platform overhead per turn (issue goal: p50 ≤ 15 ms sequential, ≥ 100 turns/s with 10 clients):
// the whole stack as `npm start` runs it (web, worker, Restate, Postgres), the offline model and
// one tool call in the sandbox. Each turn is timed from the POST that starts a session to the
// moment its stream shows `turn.completed`, over real HTTP.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { projectRoot } from "@/cli/start/project";
import { freeStackPorts, makeDataDir, printedPid, spawnSupervisor } from "@/testing/supervisor-process";
import { writeFiles } from "@/testing/folders";
import { postJson, readUntil } from "./http-client";
import { ms, percentile } from "./stats";

const run = promisify(execFile);
const message = '[call lookup {"orderId":"A1"}]';

const benchAgent = {
  "package.json": '{"name":"bench"}',
  "bot/instructions.md": "You look up orders.",
  "bot/tools/lookup.ts": `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({ description: "Looks up an order", effect: "read",
  inputSchema: z.object({ orderId: z.string() }), async execute({ orderId }) { return { orderId, status: "shipped" }; } });
`,
};

type Sample = { elapsed: number; milestones: Map<string, number> };

// Milestones of a turn, as the events' `at` stamps (server clock, same machine) say, in ms after
// the POST was sent: where the time of a turn goes.
const milestones: [label: string, match: (event: { type: string; data?: { step?: number } }) => boolean][] = [
  ["message.received (web committed the session)", (e) => e.type === "message.received"],
  ["turn.started (worker: prepared, first model step streamed)", (e) => e.type === "turn.started"],
  ["action.result (tool ran in the sandbox)", (e) => e.type === "action.result"],
  ["step.started, step 1 (second model step)", (e) => e.type === "step.started" && e.data?.step === 1],
  ["turn.completed (finish committed)", (e) => e.type === "turn.completed"],
];

async function oneTurn(url: string, token: string): Promise<Sample> {
  const startedAt = performance.now();
  const sentAt = Date.now();
  const authorization = { authorization: `Bearer ${token}` };
  const response = await postJson(`${url}/bench/v1/session`, authorization, { message });
  if (response.status !== 200) throw new Error(`POST session: ${response.status} ${response.text}`);
  const { sessionId } = JSON.parse(response.text) as { sessionId: string };
  const answered = Date.now() - sentAt;
  const buffered = await readUntil(`${url}/bench/v1/session/${sessionId}/stream?heartbeat=0`, authorization, (text) => text.includes('"type":"turn.completed"') || text.includes('"type":"turn.failed"'));
  const elapsed = performance.now() - startedAt;
  if (buffered.includes('"type":"turn.failed"')) throw new Error(`turn failed: ${buffered}`);
  const events = buffered.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { type: string; at: string; data?: { step?: number } });
  const seen = new Map<string, number>([["POST answered (client)", answered]]);
  for (const [label, match] of milestones) {
    const event = events.find(match);
    if (event) seen.set(label, Date.parse(event.at) - sentAt);
  }
  seen.set("turn.completed seen on the stream (client)", elapsed);
  return { elapsed, milestones: seen };
}

function timelineTable(samples: Sample[]): string {
  const labels = [...new Set(samples.flatMap((sample) => [...sample.milestones.keys()]))];
  const rows = labels
    .map((label) => ({ label, at: percentile(samples.flatMap((sample) => sample.milestones.get(label) ?? []), 50) }))
    .sort((a, b) => a.at - b.at);
  return rows.map((row) => `| ${row.label} | ${row.at.toFixed(0)} ms |`).join("\n");
}

export async function benchTurns(): Promise<string> {
  const dataDir = makeDataDir();
  const ports = await freeStackPorts();
  const supervisor = spawnSupervisor({ ...ports, AGENTFOLD_DATA_DIR: dataDir });
  try {
    const [, url] = await supervisor.waitForOutput(/Agentfold is ready: open (http:\/\/\S+)/, 600_000);
    const env = { ...process.env, AGENTFOLD_DATA_DIR: dataDir, POSTGRES_PORT: ports.POSTGRES_PORT };
    const cli = async (...args: string[]) => (await run(process.execPath, [path.join(projectRoot, "bin", "agentfold.mjs"), ...args], { env })).stdout.trim();
    const folder = writeFiles(path.join(dataDir, "bench-agent"), benchAgent);
    await cli("admin", "create", "--email", "bench@bench.test", "--password", "bench-password-123", "--team", "bench");
    await cli("deploy", "--dir", folder, "--team", "bench", "--slug", "bench");
    const token = await cli("token", "create", "--team", "bench", "--actions", "*", "--name", "bench");

    for (let i = 0; i < 20; i++) await oneTurn(url!, token); // warm-up: sandbox, JIT, pools
    const samples: Sample[] = [];
    for (let i = 0; i < 200; i++) samples.push(await oneTurn(url!, token));
    const sequential = samples.map((sample) => sample.elapsed);

    const components = ["web", "worker", "restate", "postgres"] as const;
    const pids = Object.fromEntries(components.map((name) => [name, printedPid(supervisor.output(), name)])) as Record<(typeof components)[number], number>;
    const cpuBefore = Object.fromEntries(components.map((name) => [name, cpuMs(pids[name])]));
    const clientBefore = process.cpuUsage();
    const clients = 10;
    const seconds = 15;
    const deadline = performance.now() + seconds * 1000;
    let turns = 0;
    const concurrentStart = performance.now();
    const concurrent: number[] = [];
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < deadline) {
          concurrent.push((await oneTurn(url!, token)).elapsed);
          turns++;
        }
      }),
    );
    const perSecond = turns / ((performance.now() - concurrentStart) / 1000);
    const clientCpu = process.cpuUsage(clientBefore);
    const cpuPerTurn = [
      ...components.map((name) => `| ${name} | ${((cpuMs(pids[name]) - cpuBefore[name]!) / turns).toFixed(1)} ms |`),
      `| the benchmark's client (same machine) | ${((clientCpu.user + clientCpu.system) / 1000 / turns).toFixed(1)} ms |`,
    ].join("\n");
    const p50 = percentile(sequential, 50);
    const p95 = percentile(sequential, 95);
    return `## Turns: platform overhead per turn

Method: the whole stack as \`npm start\` runs it (web, worker, Restate and Postgres on this machine),
the offline model \`local:scripted\`, and one tool call (\`lookup\`, a read tool in the agent's
sandbox). A turn is two model steps and one tool call, each a journaled step, and about 20
appended events. Each sample is timed from the \`POST /<slug>/v1/session\` that starts a session to
the moment its NDJSON stream shows \`turn.completed\`, over real HTTP. 20 warm-up turns first. The
client is this benchmark, on the same two cores, written to cost little (node:http on kept-alive
sockets, \`scripts/bench/http-client.ts\`): its CPU is shown below with the servers'.

| Measure | Result | Goal |
|---|---|---|
| Sequential, p50 (${sequential.length} turns) | ${ms(p50)} | ≤ 15 ms ${p50 <= 15 ? "(met)" : "(not met)"} |
| Sequential, p95 | ${ms(p95)} | |
| ${clients} concurrent clients, ${seconds} s | ${perSecond.toFixed(0)} turns/s (p50 ${ms(percentile(concurrent, 50))}, p95 ${ms(percentile(concurrent, 95))}) | ≥ 100 turns/s ${perSecond >= 100 ? "(met)" : "(not met)"} |

CPU time per turn during the concurrent run, by process with its children (Postgres backends,
the worker's sandbox). Processes that ended during the run are not counted:

| Process | CPU per turn |
|---|---|
${cpuPerTurn}

Where the time of a sequential turn goes: the median moment each milestone was reached, in ms
after the POST was sent (event \`at\` stamps have millisecond resolution):

| Milestone | Median |
|---|---|
${timelineTable(samples)}

How a turn runs here (docs/turns.md): the POST's one statement records the session and its first
message and announces the turn (NOTIFY); a worker runs it at once, with no Restate invocation
("eager first turns"), journaling its steps in Postgres (\`turn_steps\`, each record in the
statement that appends the step's last events). Restate takes a turn over only when it must wait
on the engine (an approval, a slot), fails, or its worker dies (a liveness lock and a sweep), and
carries every later turn of a session. API clients' hot calls skip Next's router
(\`src/server/http/api-front.ts\`). The appends are one statement kept in the database as a SQL
function (planned once per connection); a chat turn's common end is one of those appends, written
with the final model step's last events; steps whose outcome nothing irreversible depends on yet
(a step asking for tools, a read tool, the final answer) do not wait for their commit. Since this
work began: p50 93 → ~24–29 ms, 25 → ~60–80 turns/s, CPU per turn (all processes) ~75 → ~20–25
ms. Run-to-run spread on this VM is about ±5 ms and ±15 %, and the machine's speed drifts between
runs (the same code's web CPU per turn measured 4.3–6.1 ms in one hour): compare changes in
alternating runs, several of each. What is left, measured on this machine:

- A turn makes 9–10 statements and 4–5 commits: the session start (web), the eager run's claim
  (with its journal read), two or three appends (the first model step, the tool's result, the
  second model step with the finish), the token check twice, the stream's session check and
  first page, and the worker's read of the session and its version (a new session's first turn
  reads no conversation, and checks for coalesced sends only when one was announced). A
  session's appends follow each other (group commit writes one statement at a time per process)
  and, with four processes sharing two cores, each takes 2–8 ms on the turn's path where it takes
  0.5 ms alone (Postgres' own time per append is ~1.5 ms under this load, ~0.4 ms idle): the
  sequential turn is bound by CPU contention more than by any one wait.
- The worker is a single thread doing ~10 ms of CPU per turn: at 10 clients it is 80–95 % busy,
  so it caps throughput on its own (1,000 / its CPU per turn) just below where the two cores do.
  The AI SDK's \`streamText\` is ~2 ms of that per model step with the offline model, measured
  alone (1,000 calls of one step: 2.0–2.3 ms each; ~1 ms with a model that streams three parts
  instead of the offline model's sixteen): Node 20's web streams (\`makeTransferable\` on every
  stream made), zod validating the prompt, and garbage collection.
- Throughput is CPU-bound: 100 turns/s on two cores leaves 20 ms of CPU per turn for all
  processes together, the benchmark's own client included, against the sum in the table above.
  (The client used fetch until 2026-11-30: ~6 ms of CPU per turn, where node:http costs ~1.5–2.)
- Each new session's workspace costs three file system calls (~0.2 ms each on this disk); done
  asynchronously they took 7–10 ms, each waiting on the busy event loop.

Next, in order of what they would save: the eager run's claim without a commit of its own (tried
on 2026-11-30 with the claim in the first append, and reverted: every worker hearing the notice
then ran the first model call before learning it came second, a paid request per extra worker;
a per-session advisory lock on each worker's liveness connection would decide first, without a
commit); a session's appends pipelined (the finish waits for the first step's append, 3–6 ms
under load, before its own statement goes out); the token check cached in the web process with
revocations announced (NOTIFY), or folded into the statement it guards; the worker's claim and
its read of the session and version in one statement; the stream's session check and first page
in one statement (subscribed first); one LISTEN connection per process; a second worker process,
once the CPU per turn leaves room for it.

For scale, on this machine type Mastra's in-memory server measured 15.8 ms p50 and 59 turns/s for
the same one-tool turn, and a bare \`node:http\` NDJSON server 0.8 ms and ~1,600 turns/s (the floor).
Every turn here is durable: it survives a kill -9 of any process mid-turn.
`;
  } finally {
    await supervisor.stop("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** User + system CPU time so far of a process and all its descendants, from /proc (Linux). */
function cpuMs(root: number): number {
  const stats = new Map<number, { ppid: number; ms: number }>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      stats.set(Number(entry), { ppid: Number(fields[1]), ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 });
    } catch {
      // The process ended meanwhile.
    }
  }
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    total += stats.get(pid)?.ms ?? 0;
    for (const [child, stat] of stats) if (stat.ppid === pid) pending.push(child);
  }
  return total;
}
