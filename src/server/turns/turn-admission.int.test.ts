// Admission and stop (docs/turns.md) on a real engine: preempt aborts a long model stream or a long
// tool within a second and runs the new message; stop ends a turn without one; coalesced sends
// are steered in at a tool boundary or drained into one follow-up turn, in arrival order.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { waitFor } from "@/cli/start/wait";
import { agentDir } from "@/server/agents/storage";
import type { AgentRef } from "@/server/sessions/start-session";
import { engineAgent } from "@/testing/engine-agents";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

let h: Harness;
let agent: AgentRef;
let capped: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("admission", engineAgent);
  capped = await h.deploy("capped", {
    ...engineAgent,
    "bot/agent.ts":
      'import { defineAgent } from "agentfold";\nexport default defineAgent({ concurrency: { maxRunningTurns: 1 } });\n',
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const at = (event: SessionEvent | undefined) => Date.parse(event!.at);
const stateFile = (name: string) => path.join(agentDir(h.dataDir, agent.id), "state", name);

describe("preempt (the default admission)", () => {
  it("aborts a long model stream within a second, then runs the new message", async () => {
    const started = await h.start(agent, { message: "think hard [delay 20s]" });
    await h.eventsUntil(started.sessionId, has("step.started"));
    const next = await h.followUp(agent, started.sessionId, {
      continuationToken: started.continuationToken,
      message: "never mind",
    });
    expect(next).toMatchObject({ admission: "started", preempted: true });
    const log = await h.eventsUntil(started.sessionId, has("turn.completed"));
    const [failed] = ofType(log, "turn.failed");
    expect(failed!.data).toEqual({ message: "turn interrupted", status: "cancelled", code: "cancelled" });
    const preempting = ofType(log, "message.received").find((e) => e.data.text === "never mind");
    expect(at(failed) - at(preempting)).toBeLessThan(1_000);
    // The old turn ends before the new one starts, and the session waits only once, at the end.
    expect(failed!.index).toBeLessThan(ofType(log, "turn.started")[1]!.index);
    expect(ofType(log, "session.waiting")).toHaveLength(1);
    expect(ofType(log, "message.completed").map((e) => e.data.text)).toEqual([expect.stringContaining("never mind")]);
  });

  it("aborts a long tool within a second; the tool never finishes", async () => {
    const started = await h.start(agent, { message: '[call sleepy {"ms":20000}]' });
    const running = await h.eventsUntil(started.sessionId, has("actions.requested"));
    const callId = ofType(running, "actions.requested")[0]!.data.calls[0]!.callId;
    await h.followUp(agent, started.sessionId, { continuationToken: started.continuationToken, message: "stop that" });
    const log = await h.eventsUntil(started.sessionId, has("turn.completed"));
    const failed = ofType(log, "turn.failed")[0];
    expect(failed!.data.status).toBe("cancelled");
    expect(at(failed) - at(ofType(log, "message.received")[1])).toBeLessThan(1_000);
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      callId,
      isError: true,
      output: expect.stringContaining("cancelled"),
    });
    expect(fs.existsSync(stateFile(`sleepy-done-${callId}`))).toBe(false);
  });
});

describe("stop", () => {
  it("interrupts a running tool without a new message; the session stays a chat session", async () => {
    const started = await h.start(agent, { message: '[call sleepy {"ms":20000}]' });
    await h.eventsUntil(started.sessionId, has("actions.requested"));
    expect(await h.stop(agent, started.sessionId)).toMatchObject({ wasRunning: true });
    const log = await h.eventsUntil(started.sessionId, has("session.waiting"));
    expect(ofType(log, "turn.failed")[0]!.data).toEqual({
      message: "turn interrupted",
      status: "cancelled",
      code: "cancelled",
    });
    expect(log.at(-1)!.type).toBe("session.waiting");
    const again = await h.followUp(agent, started.sessionId, {
      continuationToken: started.continuationToken,
      message: "hello again",
    });
    expect(again.admission).toBe("started");
    await h.eventsUntil(started.sessionId, has("turn.completed"));
  });
});

describe("coalesce", () => {
  it("steers a send into the running turn at a tool boundary and drains the rest into one turn", async () => {
    const started = await h.start(agent, { message: '[call sleepy {"ms":1500}]' });
    await h.eventsUntil(started.sessionId, has("actions.requested"));
    let token = started.continuationToken;
    const send = async (message: string, deliveryId: string) => {
      const accepted = await h.followUp(agent, started.sessionId, {
        continuationToken: token,
        message,
        admission: "coalesce",
        deliveryId,
      });
      token = accepted.continuationToken;
      return accepted;
    };
    // During the tool: steered in at the boundary. Its [delay] keeps the next model step busy.
    expect(await send("first, while the tool runs [delay 2s]", "dlv_first")).toMatchObject({
      admission: "queued",
      deliveryId: "dlv_first",
    });
    await h.eventsUntil(started.sessionId, has("nudge.delivered"));
    await send("second", "dlv_second");
    await send("third", "dlv_third");
    const log = await h.eventsUntil(started.sessionId, has("turn.completed", 2));
    expect(ofType(log, "nudge.delivered").map((e) => e.data)).toEqual([
      { deliveryId: "dlv_first", text: "first, while the tool runs [delay 2s]" },
    ]);
    const received = ofType(log, "message.received");
    expect(received.map((e) => e.data.deliveryIds)).toEqual([
      [expect.stringMatching(/^dlv_/)],
      ["dlv_second", "dlv_third"],
    ]);
    expect(received[1]!.data.text).toBe("second\n\nthird");
    expect(ofType(log, "turn.failed")).toEqual([]);
    await h.eventsUntil(started.sessionId, has("session.waiting"));
  });

  it("starts a turn at once when the session is idle", async () => {
    const started = await h.start(agent, { message: "hi" });
    await h.eventsUntil(started.sessionId, has("session.waiting"));
    const accepted = await h.followUp(agent, started.sessionId, {
      continuationToken: started.continuationToken,
      message: "again",
      admission: "coalesce",
    });
    expect(accepted.admission).toBe("started");
    await h.eventsUntil(started.sessionId, has("session.waiting", 2));
  });
});

describe("concurrency.maxRunningTurns", () => {
  it("runs one turn at a time and tells the waiting ones their place as it changes", async () => {
    const sessions = [];
    for (const name of ["a", "b", "c"]) {
      const started = await h.start(capped, { message: `${name} [delay 700ms]` });
      sessions.push(started.sessionId);
      // Each start is queued behind the previous one, so arrival order is the start order.
      if (name === "a") await h.eventsUntil(started.sessionId, has("turn.started"));
      else await h.eventsUntil(started.sessionId, has("turn.queued"));
    }
    const logs = await Promise.all(sessions.map((id) => h.eventsUntil(id, has("session.waiting"))));
    expect(logs.map((log) => ofType(log, "turn.queued").map((e) => e.data.position))).toEqual([[], [1], [2, 1]]);
    // No overlap: each turn starts after the one before it completed.
    for (const i of [1, 2]) {
      expect(at(ofType(logs[i]!, "turn.started")[0])).toBeGreaterThanOrEqual(
        at(ofType(logs[i - 1]!, "turn.completed")[0]),
      );
    }
    // The last turn hands its slot on just after it finishes.
    await waitFor(
      "every slot to be released",
      async () => (await h.db.turnAdmission.count({ where: { agentId: capped.id } })) === 0,
      { timeoutMs: 10_000 },
    );
  });

  it("a queued turn that is stopped gives up its place", async () => {
    const first = await h.start(capped, { message: "busy [delay 1500ms]" });
    await h.eventsUntil(first.sessionId, has("turn.started"));
    const second = await h.start(capped, { message: "waiting" });
    await h.eventsUntil(second.sessionId, has("turn.queued"));
    await h.stop(capped, second.sessionId);
    const stopped = await h.eventsUntil(second.sessionId, has("session.waiting"));
    expect(ofType(stopped, "turn.failed")[0]!.data.status).toBe("cancelled");
    expect(ofType(stopped, "turn.started")).toEqual([]);
    await h.eventsUntil(first.sessionId, has("session.waiting"));
    const third = await h.start(capped, { message: "next" });
    const log = await h.eventsUntil(third.sessionId, has("session.waiting"));
    expect(ofType(log, "turn.queued")).toEqual([]);
  });
});
