// Cluster mode against single-node, in one run: turns/s at 20 clients with 2 workers versus 1 (the
// same cluster otherwise), and the turn p50 on the 3-node Restate cluster versus single-node. Each stack is a real
// `agentfold start` (src/testing/cluster-stack.ts), one after the other on the same machine, with
// the same agent and turn as the turn benchmark (one read tool call, the offline model).
//
// Two kinds of turn, because they take different paths: a new session's first turn runs eagerly on
// a worker without Restate (docs/turns.md), so its numbers compare the workers and webs; a
// follow-up is a Restate invocation, so its numbers compare the Restate deployments.
import os from "node:os";
import { type ClusterStack, slug, startClusterStack } from "@/testing/cluster-stack";
import { postJson, readUntil } from "./http-client";
import { ms, percentile } from "./stats";

const message = '[call lookup {"orderId":"A1"}]';
const clients = 20;
const seconds = 15;
const warmUpTurns = 100;
const sequentialTurns = 100;
const endOfTurn = (text: string) => text.includes('"type":"turn.completed"') || text.includes('"type":"turn.failed"');

type Conversation = { sessionId: string; continuationToken: string; nextIndex: number };

/** Where the next turn's events start: after the turn's end and the session.waiting that follows it. */
function nextIndexAfter(text: string): number {
  const end = text.split("\n").find((line) => line.startsWith("{") && endOfTurn(line));
  return (JSON.parse(end!) as { index: number }).index + 2;
}

async function firstTurn(url: string, token: string): Promise<{ elapsed: number; conversation: Conversation }> {
  const authorization = { authorization: `Bearer ${token}` };
  const startedAt = performance.now();
  const response = await postJson(`${url}/${slug}/v1/session`, authorization, { message });
  if (response.status !== 200) throw new Error(`POST session: ${response.status} ${response.text}`);
  const { sessionId, continuationToken } = JSON.parse(response.text) as Conversation;
  const text = await readUntil(`${url}/${slug}/v1/session/${sessionId}/stream?heartbeat=0`, authorization, endOfTurn);
  if (text.includes('"type":"turn.failed"')) throw new Error(`turn failed: ${text}`);
  return {
    elapsed: performance.now() - startedAt,
    conversation: { sessionId, continuationToken, nextIndex: nextIndexAfter(text) },
  };
}

async function followUp(url: string, token: string, conversation: Conversation): Promise<number> {
  const authorization = { authorization: `Bearer ${token}` };
  const startedAt = performance.now();
  const { sessionId } = conversation;
  const response = await postJson(`${url}/${slug}/v1/session/${sessionId}`, authorization, {
    message,
    continuationToken: conversation.continuationToken,
  });
  if (response.status !== 200) throw new Error(`POST follow-up: ${response.status} ${response.text}`);
  conversation.continuationToken = (JSON.parse(response.text) as Conversation).continuationToken;
  const stream = `${url}/${slug}/v1/session/${sessionId}/stream?heartbeat=0&startIndex=${conversation.nextIndex}`;
  const text = await readUntil(stream, authorization, endOfTurn);
  if (text.includes('"type":"turn.failed"')) throw new Error(`turn failed: ${text}`);
  conversation.nextIndex = nextIndexAfter(text);
  return performance.now() - startedAt;
}

type Measurement = {
  firstP50: number;
  followUpP50: number;
  firstPerSecond: number;
  followUpPerSecond: number;
  /** The machine's 1-minute load average at the end: other work on it shows here. */
  load: number;
};

/** `turn` for `clients` concurrent clients for `seconds`; answers turns per second. */
async function throughput(turn: (client: number) => Promise<unknown>): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  const startedAt = performance.now();
  let turns = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < deadline) {
        await turn(client);
        turns++;
      }
    }),
  );
  return turns / ((performance.now() - startedAt) / 1000);
}

async function measure(stack: ClusterStack): Promise<Measurement> {
  const { baseUrl: url, token } = stack;
  const conversation = (await firstTurn(url, token)).conversation;
  for (let i = 0; i < warmUpTurns; i++) {
    await firstTurn(url, token);
    await followUp(url, token, conversation);
  }
  const first: number[] = [];
  const later: number[] = [];
  for (let i = 0; i < sequentialTurns; i++) {
    first.push((await firstTurn(url, token)).elapsed);
    later.push(await followUp(url, token, conversation));
  }
  const firstPerSecond = await throughput(() => firstTurn(url, token));
  const conversations = await Promise.all(
    Array.from({ length: clients }, async () => (await firstTurn(url, token)).conversation),
  );
  const followUpPerSecond = await throughput((client) => followUp(url, token, conversations[client]!));
  return {
    firstP50: percentile(first, 50),
    followUpP50: percentile(later, 50),
    firstPerSecond,
    followUpPerSecond,
    load: os.loadavg()[0]!,
  };
}

/** The stacks compared: single-node, and cluster mode with 1 and with 2 workers. */
const stacks: { label: string; env: Record<string, string> }[] = [
  { label: "single-node: 1 worker, 1 Restate node", env: { AGENTFOLD_CLUSTER: "0" } },
  { label: "cluster: 1 worker, 3 Restate nodes", env: { AGENTFOLD_CLUSTER: "1", AGENTFOLD_CLUSTER_WORKERS: "1" } },
  { label: "cluster: 2 workers, 3 Restate nodes", env: { AGENTFOLD_CLUSTER: "1", AGENTFOLD_CLUSTER_WORKERS: "2" } },
];

async function measureStack(env: Record<string, string>): Promise<Measurement> {
  // The workers' per-invocation INFO lines would cost the supervisor CPU the stack is measured on.
  const stack = await startClusterStack({ ...env, RESTATE_LOGGING: "WARN" }, 600_000);
  try {
    return await measure(stack);
  } finally {
    await stack.stop();
  }
}

export async function benchCluster(): Promise<string> {
  const measured: Measurement[] = [];
  for (const { env } of stacks) measured.push(await measureStack(env));
  const row = (label: string, value: (m: Measurement) => string) => `| ${label} | ${measured.map(value).join(" | ")} |`;
  return `## Cluster mode against single-node

Method: three stacks, one after the other on this machine, each a real \`agentfold start\`: single-node
(1 web, 1 worker, 1 Restate node), and cluster mode (\`AGENTFOLD_CLUSTER=1\`: 2 webs behind a
round-robin TCP proxy, a 3-node Restate cluster with each log and partition on 2 nodes;
docs/configuration.md, "Cluster mode") with 1 and with 2 workers behind the workers' proxy
(\`AGENTFOLD_CLUSTER_WORKERS\`), on one embedded Postgres each. The turn is the turn
benchmark's (one read tool call, \`local:scripted\`), sent through \`PORT\` (the proxy, in cluster
mode). A **first turn** starts a session and runs eagerly on a worker, without Restate; a
**follow-up** is a Restate invocation of the session's virtual object. ${warmUpTurns} of each to warm up,
then ${sequentialTurns} of each in turn for the p50, then ${clients} concurrent clients for ${seconds} s each.

| Measure | ${stacks.map((s) => s.label).join(" | ")} |
|---|${stacks.map(() => "---").join("|")}|
${row("First turn, p50 (sequential)", (m) => ms(m.firstP50))}
${row("Follow-up turn, p50 (sequential)", (m) => ms(m.followUpP50))}
${row(`First turns, ${clients} clients`, (m) => `${m.firstPerSecond.toFixed(0)} turns/s`)}
${row(`Follow-up turns, ${clients} clients`, (m) => `${m.followUpPerSecond.toFixed(0)} turns/s`)}
${row("Load average (1 min) at the end, its own processes included (2 cores)", (m) => m.load.toFixed(1))}

The two cluster columns differ only in the number of workers; single-node against the first
cluster column is the 3-node Restate cluster (and the webs' proxy) against one node. This machine
has two cores, and every process of each stack, and the benchmark's clients, share them: a second
worker adds no CPU here, only one more process to schedule, so more turns per second are not
expected from it on this machine. The sequential p50s move with the machine's load from one
minute to the next (the last row) by more than the proxy hops and the replication cost: compare
them over several runs. On separate machines the workers' CPU adds up.
`;
}
