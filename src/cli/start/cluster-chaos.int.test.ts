// Chaos under load, on cluster mode's real processes (loopback only): concurrent chat sessions,
// each turn a read tool and a write tool that appends each of its runs to the session's kv list;
// one worker, one web and one Restate node are each killed with SIGKILL once, at random moments.
// At the end every turn ended (completed, or failed with a reason), every log is whole, every
// completed write ran, no write ran twice for one call (a write cut off by its worker's death
// fails with why; one whose Restate node died while it ran is awaited by the invocation's new
// attempt: docs/turns.md, "Journaled steps and crash recovery"), and every stream that
// reconnected got exactly what it missed.
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

const sessions = 100;
const loadMs = 60_000;
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

/** Kills the part's current process `atMs` into the load, and waits for its restart. */
async function killAt(part: string, atMs: number, startedAt: number): Promise<void> {
  await sleep(Math.max(0, startedAt + atMs - Date.now()));
  const pid = currentPid(stack.supervisor.output(), part as Parameters<typeof currentPid>[1]);
  process.kill(pid, "SIGKILL");
  await stack.supervisor.waitForOutput(new RegExp(`${part} restarted \\(pid \\d+\\)`), 60_000);
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
  it("loses nothing and runs no write twice when a worker, a web and a Restate node are killed", {
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
    await Promise.all([
      Promise.all(plan.map((k) => killAt(k.part, k.atMs, startedAt))),
      Promise.all(clients.map((client) => client.run(startedAt + loadMs, turnBoundMs))),
    ]);

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
    let interrupted = 0;
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
      // The write tool: every completed call ran, and no call ran twice.
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
      expect(again.map((run) => `${run.callId} ran twice`)).toEqual([]);
      // A run with no result at all: only in a turn that failed. A cut-off one says so.
      const failedTurns = new Set(log.filter((e) => e.type === "turn.failed").map((e) => e.turnId));
      const turnOfCall = new Map(
        log.flatMap((e) => (e.type === "actions.requested" ? e.data.calls.map((c) => [c.callId, e.turnId]) : [])),
      );
      const unanswered = runs.filter((run) => !results.some((result) => result.callId === run.callId));
      expect(unanswered.filter((run) => !failedTurns.has(turnOfCall.get(run.callId)))).toEqual([]);
      const cutOff = results.filter((r) => r.isError && String(r.output).startsWith("interrupted:"));
      interrupted += cutOff.length;
    }
    // The kill of a web cut streams off, and they came back on the other one.
    expect(reconnected).toBeGreaterThan(0);
    console.log(
      `chaos: ${turns.length} turns in ${sessions} sessions (${failed.length} failed: ` +
        `${[...new Set(failed.map((t) => (t.end?.data as { code?: string } | undefined)?.code))].join(", ") || "none"}), ` +
        `${reconnected} stream reconnections, ${interrupted} writes cut off by a kill (failed, not run again)`,
    );
  });
});
