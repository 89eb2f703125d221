// Chaos under load, on cluster mode's real processes (loopback only): concurrent chat sessions,
// each turn a read tool and a write tool that appends each of its runs to the session's kv list;
// one worker, one web and one Restate node are each killed with SIGKILL once, at random moments.
// At the end every turn ended (completed, or failed with a reason), every log is whole, every
// completed write ran, no write ran twice for one call outside the moments a kill disturbed, and
// every stream that reconnected got exactly what it missed. A write cut off by a kill may run
// again: a tool call runs at least once (docs/turns.md, "Journaled steps and crash recovery").
// And when a Restate node dies or comes back, its partitions' invocations get a new attempt while
// the old one may still be in its write tool: the old attempt's `action.result` still reaches the
// log (the append statement fences only the step's journal row by the turn epoch, not the events,
// prisma/migrations/20261130073000_append_events_function), so the new attempt, whose journal
// read found no record, runs the write again and its own result is dropped as a duplicate. So a
// second run of one call is allowed only if both runs started within a kill's window (from the
// kill to 10 s after the part was back); the test counts them.
//
// Scaled from the issue's 100 sessions for 60 s to 24 sessions for 40 s: on the project's 2-core
// machine the whole test, the cluster's start-up included (9 processes), must stay within 3
// minutes, and 100 sessions' clients alone would take most of both cores from the processes they
// test. What it proves does not depend on the count: every kill lands among turns in flight.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { startChatClient, type ChatClient } from "@/testing/chat-client";
import {
  type ClusterStack,
  isTurnEnd,
  sessionLog,
  slug,
  startClusterStack,
  type WriteRun,
} from "@/testing/cluster-stack";
import { currentPid } from "@/testing/supervisor-process";
import { sleep } from "./wait";

const sessions = 24;
const loadMs = 40_000;
const turnBoundMs = 60_000;
const message = '[call lookup {"orderId":"C1"}] [call bump {}] [delay 100ms]';
const readyTimeout = 360_000;
let stack: ClusterStack;

beforeAll(async () => {
  stack = await startClusterStack({}, readyTimeout);
}, readyTimeout + 60_000);

afterAll(async () => {
  await stack?.stop();
});

type Window = { from: number; to: number };
const settleMs = 10_000;

/** Kills the part's current process `atMs` into the load; answers from the kill until it settled. */
async function killAt(part: string, atMs: number, startedAt: number): Promise<Window> {
  await sleep(Math.max(0, startedAt + atMs - Date.now()));
  const pid = currentPid(stack.supervisor.output(), part as Parameters<typeof currentPid>[1]);
  const from = Date.now();
  process.kill(pid, "SIGKILL");
  await stack.supervisor.waitForOutput(new RegExp(`${part} restarted \\(pid \\d+\\)`), 60_000);
  return { from, to: Date.now() + settleMs };
}

const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
const moment = () => Math.round(loadMs * (0.15 + Math.random() * 0.6));

function expectWholeLog(log: SessionEvent[]): void {
  expect(log.map((e) => e.index)).toEqual(log.map((_, i) => i));
  const seen = new Map<string, number>();
  const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
  for (const e of log) {
    if (["message.received", "turn.started", "turn.completed", "turn.failed"].includes(e.type))
      count(`${e.type} ${e.turnId}`);
    if (isTurnEnd(e)) count(`end ${e.turnId}`);
    if (e.type === "action.result") count(`${e.type} ${e.data.callId}`);
  }
  expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
}

describe("cluster mode under chaos", () => {
  it("loses nothing, and runs a write twice only where a kill cut it off, when a worker, a web and a Restate node are killed", {
    timeout: 180_000,
  }, async () => {
    const endpoints = { baseUrl: stack.baseUrl, webUrls: stack.webUrls, token: stack.token, slug };
    const clients: ChatClient[] = await Promise.all(
      Array.from({ length: sessions }, (_, n) => startChatClient(endpoints, n, message)),
    );
    const startedAt = Date.now();
    const plan = [
      { part: pick(["worker-1", "worker-2"]), atMs: moment() },
      { part: pick(["web-1", "web-2"]), atMs: moment() },
      { part: pick(["restate-1", "restate-2", "restate-3"]), atMs: moment() },
    ];
    console.log(`chaos plan: ${plan.map((k) => `${k.part} at ${k.atMs} ms`).join(", ")}`);
    const [windows] = await Promise.all([
      Promise.all(plan.map((k) => killAt(k.part, k.atMs, startedAt))),
      Promise.all(clients.map((client) => client.run(startedAt + loadMs, turnBoundMs))),
    ]);
    const isDisturbed = (at: number) => windows.some((w) => at >= w.from && at <= w.to);

    const turns = clients.flatMap((client) => client.turns);
    // Every turn ended, and a failed one says why. A turn that did not is shown with its session's
    // row: a follow-up whose web died between recording it and sending it to Restate is left with
    // runningTurnId set and no invocation, and nothing sends it (eager-turns.ts sweeps only turns an
    // eager run had).
    const stuck = clients.flatMap((client) =>
      client.turns.filter((turn) => turn.problem).map((turn) => ({ sessionId: client.sessionId, ...turn })),
    );
    const { rows: stuckRows } = await stack.db.query(
      `SELECT id, "runningTurnId", "runningInvocationId", "eagerWorker", status FROM sessions WHERE id = ANY($1)`,
      [stuck.map((turn) => turn.sessionId)],
    );
    expect({ stuck, sessions: stuckRows }).toEqual({ stuck: [], sessions: [] });
    const failed = turns.filter((turn) => turn.end?.type === "turn.failed");
    for (const turn of failed)
      expect(turn.end?.data).toMatchObject({ message: expect.any(String), code: expect.any(String) });

    let reconnected = 0;
    let ranTwice = 0;
    for (const client of clients) {
      const log = await sessionLog(stack.baseUrl, stack.token, client.sessionId);
      expectWholeLog(log);
      expect(log.filter((e) => e.type === "message.received")).toHaveLength(client.turns.length);
      // The stream: every event once, in order, whichever webs it went through.
      const { events, reconnections } = client.follower;
      client.follower.close();
      expect(events).toEqual(log.slice(0, events.length));
      for (const r of reconnections.filter((r) => r.firstIndex !== undefined)) expect(r.firstIndex).toBe(r.startIndex);
      reconnected += reconnections.filter((r) => r.firstIndex !== undefined).length;
      // The write tool: every completed call ran; twice only while a kill disturbed the cluster.
      const results = log.flatMap((e) => (e.type === "action.result" && e.data.toolName === "bump" ? [e.data] : []));
      const { rows } = await stack.db.query<{ value: WriteRun[] }>(`SELECT value FROM agent_kv WHERE key = $1`, [
        `runs:${client.sessionId}`,
      ]);
      const runs = rows[0]?.value ?? [];
      for (const result of results.filter((r) => !r.isError))
        expect(
          runs.some((run) => run.callId === result.callId),
          result.callId,
        ).toBe(true);
      const again = runs.filter((run, i) => runs.findIndex((other) => other.callId === run.callId) !== i);
      for (const run of again) {
        const all = runs.filter((other) => other.callId === run.callId);
        expect(
          all.filter((other) => !isDisturbed(other.startedAt)),
          `${run.callId} ran twice`,
        ).toEqual([]);
      }
      // A run with no result at all: only in a turn that failed.
      const failedTurns = new Set(log.filter((e) => e.type === "turn.failed").map((e) => e.turnId));
      const turnOfCall = new Map(
        log.flatMap((e) => (e.type === "actions.requested" ? e.data.calls.map((c) => [c.callId, e.turnId]) : [])),
      );
      const unanswered = runs.filter((run) => !results.some((result) => result.callId === run.callId));
      expect(unanswered.filter((run) => !failedTurns.has(turnOfCall.get(run.callId)))).toEqual([]);
      ranTwice += again.length;
    }
    // The kill of a web cut streams off, and they came back on the other one.
    expect(reconnected).toBeGreaterThan(0);
    console.log(
      `chaos: ${turns.length} turns in ${sessions} sessions (${failed.length} failed: ` +
        `${[...new Set(failed.map((t) => (t.end?.data as { code?: string } | undefined)?.code))].join(", ") || "none"}), ` +
        `${reconnected} stream reconnections, ${ranTwice} writes run again after a kill cut them off`,
    );
  });
});
