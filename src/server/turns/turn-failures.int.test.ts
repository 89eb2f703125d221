// Failures a turn meets, on the real engine (Postgres, Restate, sandboxes, a provider fake over
// HTTP): each ends within a bound, nothing retries forever, and a completed call never runs again
// (docs/turns.md, "Failures").
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { waitFor } from "@/cli/start/wait";
import { agentDir } from "@/server/agents/storage";
import type { AgentRef } from "@/server/sessions/start-session";
import { engineAgent } from "@/testing/engine-agents";
import { startProviderFake, type ProviderFake } from "@/testing/provider-fakes";
import type { FakeReply } from "@/testing/provider-fakes/reply";
import { ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

// A backoff long enough to stop a turn inside it, short enough to see the attempts run out.
const retry = { attempts: 3, initialIntervalMs: 4_000, maxIntervalMs: 4_000 };

let fake: ProviderFake;
let h: Harness;
let engine: AgentRef;
let provider: AgentRef;
let unresolvable: AgentRef;
// What the provider fake answers next: down (503) until a test brings it back.
let reply: () => FakeReply = () => ({ error: { status: 503, message: "the provider is overloaded" } });

const agentTs = (model: string) =>
  `import { defineAgent } from "agentfold";\nexport default defineAgent({ model: "${model}" });\n`;

beforeAll(async () => {
  fake = await startProviderFake({ provider: "openai", script: () => reply() });
  h = await startTurnHarness({
    databaseUrl: inject("databaseUrl"),
    models: { openaiApiKey: "test-key", openaiBaseUrl: fake.baseUrl },
    retry,
  });
  engine = await h.deploy("failing", {
    ...engineAgent,
    "bot/tools/nul.ts": `import { defineTool } from "agentfold/tools";
import fs from "node:fs";
import path from "node:path";
export default defineTool({ description: "answers text Postgres cannot store", effect: "write",
  async execute(input, ctx) { fs.appendFileSync(path.join(ctx.stateRoot, "nul.log"), ctx.toolCallId + "\\n"); return { echoed: input.text, extra: "a\\u0000b\\ud800c" }; } });
`,
  });
  provider = await h.deploy("overloaded", { ...engineAgent, "bot/agent.ts": agentTs("openai:gpt-test") });
  unresolvable = await h.deploy("keyless", { ...engineAgent, "bot/agent.ts": agentTs("anthropic:claude-sonnet-4-5") });
}, 120_000);

afterAll(async () => {
  await h?.close();
  await fake?.close();
});

const waiting =
  (n = 1) =>
  (log: SessionEvent[]) =>
    ofType(log, "session.waiting").length >= n;

async function invocationStatus(sessionId: string): Promise<string[]> {
  const response = await fetch(`${h.ports().restateAdmin}/query`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      query: `SELECT status FROM sys_invocation WHERE target_service_name = 'session' AND target_service_key = '${sessionId}'`,
    }),
  });
  return ((await response.json()) as { rows: { status: string }[] }).rows.map((row) => row.status);
}

describe("terminal failures end the turn at once", () => {
  it("an unresolvable model: turn.failed within 10 s naming the missing key, and the session waits", async () => {
    const startedAt = Date.now();
    const started = await h.start(unresolvable, { message: "hello" });
    const log = await h.eventsUntil(started.sessionId, waiting(), 10_000);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    const [failed] = ofType(log, "turn.failed");
    expect(failed!.data).toEqual({
      message: expect.stringContaining("ANTHROPIC_API_KEY"),
      status: "error",
      code: "model_unavailable",
    });
    expect(await invocationStatus(started.sessionId)).not.toContain("backing-off");
  });
});

describe("data Postgres cannot store", () => {
  it("a write tool whose output and arguments hold NUL and lone surrogates runs exactly once", async () => {
    const started = await h.start(engine, { message: String.raw`[call nul {"text":"x\u0000y\udc00"}]` });
    const log = await h.eventsUntil(started.sessionId, waiting());
    const lines = fs
      .readFileSync(path.join(agentDir(h.dataDir, engine.id), "state", "nul.log"), "utf8")
      .trim()
      .split("\n");
    expect(lines).toHaveLength(1);
    expect(ofType(log, "actions.requested")[0]!.data.calls[0]!.args).toEqual({ text: "x\ufffdy\ufffd" });
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      isError: false,
      output: { echoed: "x\ufffdy\ufffd", extra: "a\ufffdb\ufffdc" },
    });
    expect(ofType(log, "turn.completed")).toHaveLength(1);
  });
});

describe("retryable failures are bounded", () => {
  it("a provider that stays down: the turn gives up after the bound's attempts with retries_exhausted", async () => {
    const before = fake.requests.length;
    const started = await h.start(provider, { message: "are you there?" });
    const log = await h.eventsUntil(started.sessionId, waiting(), 30_000);
    const [failed] = ofType(log, "turn.failed");
    expect(failed!.data).toEqual({
      message: expect.stringMatching(/^gave up after 3 attempts \(provider_unavailable\): .*overloaded/),
      status: "error",
      code: "retries_exhausted",
    });
    // Each attempt is one model step: its request and the SDK's one retry of it. Bounded spend.
    expect(fake.requests.length - before).toBe(retry.attempts * 2);
    expect(ofType(log, "step.started").map((e) => e.data.attempt ?? 1)).toEqual([1, 2, 3]);
    await new Promise((resolve) => setTimeout(resolve, retry.maxIntervalMs + 1_000));
    expect(fake.requests.length - before).toBe(retry.attempts * 2);
  }, 40_000);

  it("stop during the backoff records cancelled at once, and the next follow-up runs", async () => {
    const started = await h.start(provider, { message: "first try" });
    await waitFor(
      "the turn to wait out a retry's backoff",
      async () => (await invocationStatus(started.sessionId)).includes("backing-off"),
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    const stoppedAt = Date.now();
    expect(await h.stop(provider, started.sessionId)).toMatchObject({ wasRunning: true });
    const log = await h.eventsUntil(started.sessionId, waiting(), 10_000);
    // Well inside the backoff: the stop did not wait for the next attempt.
    expect(Date.now() - stoppedAt).toBeLessThan(retry.initialIntervalMs - 1_000);
    expect(ofType(log, "turn.failed")[0]!.data).toMatchObject({ status: "cancelled", code: "cancelled" });

    reply = () => ({ text: ["back ", "again"] });
    try {
      await h.followUp(provider, started.sessionId, {
        message: "second try",
        continuationToken: started.continuationToken,
      });
      const after = await h.eventsUntil(started.sessionId, waiting(2), 15_000);
      expect(ofType(after, "message.completed").at(-1)!.data.text).toBe("back again");
      expect(ofType(after, "turn.completed")).toHaveLength(1);
    } finally {
      reply = () => ({ error: { status: 503, message: "the provider is overloaded" } });
    }
  }, 40_000);

  it("delete during the backoff ends the invocation: no attempt runs after it", async () => {
    const started = await h.start(provider, { message: "doomed" });
    await waitFor(
      "the turn to wait out a retry's backoff",
      async () => (await invocationStatus(started.sessionId)).includes("backing-off"),
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    await h.remove(provider, started.sessionId);
    await waitFor(
      "the invocation to end",
      async () => (await invocationStatus(started.sessionId)).every((status) => status === "completed"),
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    const requests = fake.requests.length;
    await new Promise((resolve) => setTimeout(resolve, retry.maxIntervalMs + 1_000));
    expect(fake.requests.length).toBe(requests);
  }, 40_000);
});

describe("direct tool calls", () => {
  it("a forged call with a malformed body fails at once instead of retrying", async () => {
    const startedAt = Date.now();
    const response = await fetch(`${h.ports().restateIngress}/tools/call`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ agentId: { not: "a string" }, versionId: 7, toolName: "lookup", input: {} }),
      signal: AbortSignal.timeout(20_000),
    });
    expect(response.ok).toBe(false);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });
});
