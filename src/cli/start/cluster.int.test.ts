// Cluster mode as a user starts it (`AGENTFOLD_CLUSTER=1 agentfold start`): 3 Restate nodes, 2
// workers behind one registered address, 2 webs behind a proxy on PORT, one Postgres, all real
// processes on loopback. What several workers and webs must keep: one turn at a time per session
// whichever process takes it, one run of an eager first turn, streams and credential caches that
// follow changes made through another web.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { liveWorkersSql } from "@/server/worker/live-workers";
import {
  type ClusterStack,
  isTurnEnd,
  request,
  sessionLog,
  slug,
  startClusterStack,
  type WriteRun,
} from "@/testing/cluster-stack";
import { followStream } from "@/testing/stream-follower";
import { waitFor } from "./wait";

// A cluster's start-up, and maybe a web build (over 3 min on two busy cores).
const readyTimeout = 360_000;
const turnBound = 60_000;
let stack: ClusterStack;

beforeAll(async () => {
  // INFO: the workers log each Restate invocation they start, which says which worker ran a turn.
  stack = await startClusterStack({ RESTATE_LOGGING: "INFO" }, readyTimeout);
}, readyTimeout + 60_000);

afterAll(async () => {
  const code = await stack?.stop();
  expect(code).toBe(0);
});

const web = (n: number) => stack.webUrls[n % stack.webUrls.length]!;

async function startSession(webIndex: number, message: string): Promise<{ sessionId: string; token: string }> {
  const { status, json } = await request(web(webIndex), stack.token, "POST", `/${slug}/v1/session`, { message });
  expect(status, JSON.stringify(json)).toBe(200);
  return { sessionId: json.sessionId, token: json.continuationToken };
}

async function waitForLog(sessionId: string, what: string, isDone: (log: SessionEvent[]) => boolean) {
  let log: SessionEvent[] = [];
  await waitFor(what, async () => isDone((log = await sessionLog(stack.baseUrl, stack.token, sessionId))), {
    timeoutMs: turnBound,
    intervalMs: 100,
  });
  return log;
}

const endedTurns = (log: SessionEvent[]) => log.filter(isTurnEnd).length;
const turnCount = (log: SessionEvent[]) => log.filter((e) => e.type === "message.received").length;
const allEnded = (log: SessionEvent[]) => turnCount(log) > 0 && endedTurns(log) === turnCount(log);

/** Which workers started a Restate invocation of the session (their INFO lines). */
function invokingWorkers(sessionId: string): Set<string> {
  const pattern = new RegExp(`\\[(worker-\\d)\\] .*\\[session/${sessionId}/runTurn\\].*Starting invocation`, "g");
  return new Set([...stack.supervisor.output().matchAll(pattern)].map((m) => m[1]!));
}

/**
 * Indexes 0..n-1; each turn ran between its start and its end with no other turn's steps inside.
 * One exception: a preempted turn's write tool call that was aborted can append its `cancelled`
 * error result after the turn's end, inside the next turn (a write's result is not fenced by the
 * turn epoch: docs/turns.md). It is an event, not a run: the call was aborted before the next
 * turn started.
 */
/** The log in one line, for a failure's message: index, type and turn of each event. */
const outline = (log: SessionEvent[]) =>
  log.map((e) => `${e.index}:${e.type}${e.turnId ? `@${e.turnId.slice(-6)}` : ""}`).join(" ");

function expectSerialized(log: SessionEvent[]): void {
  expect(log.map((e) => e.index)).toEqual(log.map((_, i) => i));
  let running: string | undefined;
  const cancelled = new Set<string | undefined>();
  const isLateAbort = (event: SessionEvent) =>
    event.type === "action.result" && event.data.isError && cancelled.has(event.turnId);
  for (const event of log) {
    if (event.type === "turn.failed" && event.data.status === "cancelled") cancelled.add(event.turnId);
    if (event.type === "turn.started") {
      expect(running, `turn ${event.turnId} started while ${running} ran`).toBeUndefined();
      running = event.turnId;
    } else if (isTurnEnd(event) && event.turnId !== running) {
      // A send preempted while it waited for the turn before it ends without having started.
      expect(
        log.some((e) => e.type === "turn.started" && e.turnId === event.turnId),
        `${event.type} of ${event.turnId} at ${event.index}, which had started, while ${running} ran: ${outline(log)}`,
      ).toBe(false);
      expect(event.type === "turn.failed" && event.data.status).toBe("cancelled");
    } else if (isTurnEnd(event)) {
      running = undefined;
    } else if ((event.type.startsWith("step.") || event.type.startsWith("action")) && !isLateAbort(event)) {
      expect(event.turnId, `${event.type} of ${event.turnId} inside ${running}`).toBe(running);
    }
  }
  const ends = log.filter(isTurnEnd).map((e) => e.turnId);
  expect(new Set(ends).size).toBe(ends.length);
}

describe("cluster mode", () => {
  it("serializes each session's turns, whichever web took the send and whichever worker runs it", {
    timeout: 180_000,
  }, async () => {
    const sessions = await Promise.all(
      [0, 1, 2, 3].map((n) => startSession(n, `session ${n} [call lookup {"orderId":"S${n}"}]`)),
    );
    // Follow-ups alternate between the webs, each sent as soon as the last one answered: most
    // preempt the turn before them, which must end before the next one starts.
    await Promise.all(
      sessions.map(async (session, n) => {
        for (let i = 1; i <= 6; i++) {
          const { status, json } = await request(
            web(n + i),
            stack.token,
            "POST",
            `/${slug}/v1/session/${session.sessionId}`,
            {
              continuationToken: session.token,
              message: `follow-up ${i} [call bump {}] [delay 150ms]`,
            },
          );
          expect(status, JSON.stringify(json)).toBe(200);
          session.token = json.continuationToken;
        }
      }),
    );
    const workers = new Set<string>();
    for (const { sessionId } of sessions) {
      const log = await waitForLog(sessionId, "every turn to end", (l) => turnCount(l) === 7 && allEnded(l));
      expectSerialized(log);
      expect(log.filter(isTurnEnd).at(-1)?.type).toBe("turn.completed");
      for (const worker of invokingWorkers(sessionId)) workers.add(worker);
    }
    // Follow-ups are Restate invocations, sent through the one registered address to both workers.
    expect([...workers].sort()).toEqual(["worker-1", "worker-2"]);
  });

  it("runs each eager first turn on exactly one worker, and both workers take some", { timeout: 120_000 }, async () => {
    const sessions = await Promise.all(
      Array.from({ length: 16 }, (_, n) =>
        startSession(n, `first ${n} [call lookup {"orderId":"E${n}"}] [call bump {}]`),
      ),
    );
    for (const { sessionId } of sessions) {
      const log = await waitForLog(sessionId, "the first turn to end", allEnded);
      expect(log.filter((e) => e.type === "turn.started")).toHaveLength(1);
      expect(log.filter(isTurnEnd).map((e) => e.type)).toEqual(["turn.completed"]);
      // One run: no step ran twice, and Restate never ran it (no worker started an invocation).
      const steps = log.filter((e) => e.type === "step.started");
      expect(steps.filter((e) => (e.data.attempt ?? 1) > 1)).toEqual([]);
      expect(new Set(steps.map((e) => e.data.step)).size).toBe(steps.length);
      expect(invokingWorkers(sessionId).size).toBe(0);
      const calls = log.filter((e) => e.type === "action.result" && e.data.toolName === "bump");
      expect(calls).toHaveLength(1);
    }
    const ids = sessions.map((s) => s.sessionId);
    const { rows } = await stack.db.query<{ key: number; n: number }>(
      `SELECT s."eagerWorker" AS key, count(*)::int AS n FROM sessions s WHERE s.id = ANY($1) GROUP BY 1`,
      [ids],
    );
    const live = await stack.db.query<{ key: number }>(`SELECT w.key FROM ${liveWorkersSql} w`);
    expect(live.rows).toHaveLength(2);
    expect(rows.map((r) => r.key).sort()).toEqual(live.rows.map((r) => r.key).sort());
    // Each bump ran once: its call id is in the session's kv list once.
    const kv = await stack.db.query<{ key: string; value: WriteRun[] }>(
      `SELECT key, value FROM agent_kv WHERE key = ANY($1)`,
      [ids.map((id) => `runs:${id}`)],
    );
    expect(kv.rows).toHaveLength(ids.length);
    for (const row of kv.rows) expect(row.value).toHaveLength(1);
  });

  it("streams on one web what a worker appends for a turn another web's request started", {
    timeout: 60_000,
  }, async () => {
    const { sessionId, token } = await startSession(0, 'hello [call lookup {"orderId":"L1"}]');
    await waitForLog(sessionId, "the first turn to end", allEnded);
    const start = (await sessionLog(stack.baseUrl, stack.token, sessionId)).length;
    // Subscribed on web-2 (from the log's end, so everything it gets comes live), then sent on web-1.
    const follower = followStream({ urls: [web(1)], slug, sessionId, token: stack.token, startIndex: start });
    try {
      await follower.connected;
      const { status, json } = await request(web(0), stack.token, "POST", `/${slug}/v1/session/${sessionId}`, {
        continuationToken: token,
        message: "again [call bump {}]",
      });
      expect(status, JSON.stringify(json)).toBe(200);
      const end = await follower.waitFor(isTurnEnd, turnBound);
      expect(end.type).toBe("turn.completed");
      const log = await sessionLog(stack.baseUrl, stack.token, sessionId);
      expect(follower.events).toEqual(log.slice(start, start + follower.events.length));
      expect(follower.events[0]?.type).toBe("message.received");
      expect(follower.reconnections).toEqual([]);
    } finally {
      follower.close();
    }
  });

  it("answers 401 on every web once a token both webs have checked is revoked", { timeout: 60_000 }, async () => {
    const token = await stack.cli("token", "create", "--team", slug, "--actions", "*", "--name", "revoked");
    // Both webs check it, and keep it in their caches.
    for (const url of stack.webUrls) {
      expect((await request(url, token, "GET", `/${slug}/v1/session`)).status).toBe(200);
      expect((await request(url, token, "GET", `/${slug}/v1/session`)).status).toBe(200);
    }
    await stack.cli("token", "revoke", "--token", token);
    for (const url of stack.webUrls) {
      await waitFor(
        `${url} to refuse the revoked token`,
        async () => (await request(url, token, "GET", `/${slug}/v1/session`)).status === 401,
        {
          timeoutMs: 10_000,
        },
      );
    }
    // The other token still works on both.
    for (const url of stack.webUrls)
      expect((await request(url, stack.token, "GET", `/${slug}/v1/session`)).status).toBe(200);
  });
});
