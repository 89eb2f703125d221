// Cluster mode against single-node, in one run (issue: turns/s at 20 clients with 2 workers versus
// 1, and the turn p50 on the 3-node Restate cluster versus single-node). Each stack is a real
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

async function measureStack(isCluster: boolean): Promise<Measurement> {
  // The workers' per-invocation INFO lines would cost the supervisor CPU the stack is measured on.
  const stack = await startClusterStack({ AGENTFOLD_CLUSTER: isCluster ? "1" : "0", RESTATE_LOGGING: "WARN" }, 600_000);
  try {
    return await measure(stack);
  } finally {
    await stack.stop();
  }
}

export async function benchCluster(): Promise<string> {
  const single = await measureStack(false);
  const cluster = await measureStack(true);
  const row = (label: string, value: (m: Measurement) => string) =>
    `| ${label} | ${value(single)} | ${value(cluster)} |`;
  return `## Cluster mode against single-node

Method: two stacks, one after the other on this machine, each a real \`agentfold start\`: single-node
(1 web, 1 worker, 1 Restate node) and cluster mode (\`AGENTFOLD_CLUSTER=1\`: 2 webs and 2 workers
behind round-robin TCP proxies, a 3-node Restate cluster with each log and partition on 2 nodes;
docs/configuration.md, "Cluster mode"), on one embedded Postgres each. The turn is the turn
benchmark's (one read tool call, \`local:scripted\`), sent through \`PORT\` (the proxy, in cluster
mode). A **first turn** starts a session and runs eagerly on a worker, without Restate; a
**follow-up** is a Restate invocation of the session's virtual object. ${warmUpTurns} of each to warm up,
then ${sequentialTurns} of each in turn for the p50, then ${clients} concurrent clients for ${seconds} s each.

| Measure | single-node: 1 worker, 1 Restate node | cluster: 2 workers, 3 Restate nodes |
|---|---|---|
${row("First turn, p50 (sequential)", (m) => ms(m.firstP50))}
${row("Follow-up turn, p50 (sequential)", (m) => ms(m.followUpP50))}
${row(`First turns, ${clients} clients`, (m) => `${m.firstPerSecond.toFixed(0)} turns/s`)}
${row(`Follow-up turns, ${clients} clients`, (m) => `${m.followUpPerSecond.toFixed(0)} turns/s`)}
${row("Load average (1 min) at the end, its own processes included (2 cores)", (m) => m.load.toFixed(1))}

This machine has two cores, and every process of both stacks, and the benchmark's clients, share
them: a second worker adds no CPU here, only more processes to schedule (nine instead of four), so
more turns per second are not expected from it on this machine, and the concurrent rows show what
cluster mode costs on one machine (a proxy hop each way, each Restate log written to two nodes,
more processes on two cores). The sequential p50s move with the machine's load from one minute to
the next (the last row) by more than the proxy hops and the replication cost: compare them over
several runs. On separate machines the workers' CPU adds up.
`;
}
