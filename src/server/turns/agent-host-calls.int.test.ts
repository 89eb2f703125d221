// Host calls of agent code on a real engine, on the offline model: `decide` from a tool, a hook and
// a schedule (one structured model call each, its answer checked), ctx.getSession's scoping, and
// the options that do nothing here said at run time — send's admission on a new session (a warn
// line in the agent's logs) and receive's target (refused).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { waitFor } from "@/cli/start/wait";
import { createKvStore } from "@/server/host-state/kv";
import { type AgentRef, startSession } from "@/server/sessions/start-session";
import { maxDecisionsPerCall } from "@/server/turns/decide-host-call";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

const tool = (body: string) => `import { defineTool } from "agentfold/tools";
import { decide } from "@cursor/bdk/extensions/jev";
export default defineTool({ description: "test tool", effect: "read", async execute(input, ctx) { ${body} } });
`;

const files = {
  "bot/instructions.md": "You exercise the host API.",
  "bot/tools/tier.ts": tool(
    'return await decide({ question: "How risky is it? " + (input.note ?? ""), context: { amount: input.amount }, choices: ["low", "medium", "high"] });',
  ),
  // As tier, but deciding nothing: the same prompts, word for word, without decide's call.
  "bot/tools/flat.ts": tool('return "low";'),
  "bot/tools/many.ts": tool(`let made = 0;
    try {
      for (;;) { await decide({ question: "Again?", boolean: true }); made++; }
    } catch (error) { return { made, error: error.message }; }`),
  "bot/tools/peek.ts": tool(`return {
    own: await ctx.getSession(ctx.session.channel, ctx.session.id),
    onAnotherChannel: await ctx.getSession("reports", ctx.session.id),
    someoneElses: await ctx.getSession("http", input.otherId),
    unknown: await ctx.getSession("http", "ses_unknown"),
  };`),
  "bot/tools/spawn.ts": tool(
    'const handle = await ctx.send("http", "[say: spawned]", { admission: "coalesce", title: "spawned" }); return { id: handle.id };',
  ),
  "bot/hooks/rate.ts": `import { defineHook } from "agentfold/hooks";
import { decide } from "agentfold/extensions/jev";
export default defineHook({ events: { "turn.completed": async (event, ctx) => {
  const rating = await decide({ question: "Was the turn useful?", context: { index: event.index }, choices: ["useful", "useless"] });
  await ctx.host.kv.put("rated:" + ctx.session.id, rating);
} } });
`,
  "bot/schedules/gate.ts": `import { defineSchedule } from "@cursor/july/schedules";
import { decide } from "@cursor/july/extensions/jev";
export default defineSchedule({ cron: "0 0 1 1 *", async run({ host }) {
  const open = await decide({ question: "Open the gate?", boolean: true });
  const level = await decide({ question: 'Which level? [say: {"answer": 7}]', score: { min: 0, max: 10 } });
  const midpoint = await decide({ question: "Which level?", score: { min: 0, max: 10 } });
  await host.kv.put("gate", { open, level, midpoint });
} });
`,
  "bot/schedules/targeted.ts": `import { defineSchedule } from "agentfold/schedules";
export default defineSchedule({ cron: "0 0 1 1 *", async run({ receive, appAuth }) {
  await receive("http", { message: "Post in the thread", auth: appAuth, target: { channelId: "C1", threadTs: "1.2" } });
} });
`,
};

let h: Harness;
let agent: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("host-calls", files);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const call = (toolName: string, input: object) => `[call ${toolName} ${JSON.stringify(input)}]`;

async function runTurn(message: string, title?: string) {
  const { sessionId } = await h.start(agent, { message, ...(title ? { title } : {}) });
  const log = await h.eventsUntil(sessionId, (l) => has("turn.completed")(l) || has("turn.failed")(l));
  return { sessionId, log };
}

function result(log: SessionEvent[], toolName: string) {
  return ofType(log, "action.result").find((e) => e.data.toolName === toolName)?.data;
}

describe("decide", () => {
  it("answers a tool with the model's choice: the first on the offline model, or what [say: …] says", async () => {
    const plain = await runTurn(call("tier", { amount: 40 }));
    expect(result(plain.log, "tier")).toMatchObject({ isError: false, output: "low" });
    const said = await runTurn(call("tier", { amount: 900, note: '[say: {"answer": "high"}]' }));
    expect(result(said.log, "tier")).toMatchObject({ isError: false, output: "high" });
  }, 60_000);

  it("throws to the tool when the model's answer is not one of the choices", async () => {
    const { log } = await runTurn(call("tier", { amount: 900, note: '[say: {"answer": "purple"}]' }));
    expect(result(log, "tier")).toMatchObject({
      isError: true,
      output: expect.stringContaining(
        'decide: the model (local:scripted) answered "purple", which is not one of: "low", "medium", "high"',
      ),
    });
  }, 60_000);

  it("counts a tool's decisions in its turn's usage", async () => {
    const usage = (log: SessionEvent[]) => ofType(log, "turn.completed")[0]!.data.usage!;
    const deciding = usage((await runTurn(call("tier", { amount: 40 }))).log);
    const flat = usage((await runTurn(call("flat", { amount: 40 }))).log);
    // decide's own prompt (its system text, the question, the answer's shape) and its JSON answer.
    expect(deciding.inputTokens - flat.inputTokens).toBeGreaterThan(20);
    expect(deciding.outputTokens - flat.outputTokens).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("allows a tool call at most 20 decisions", async () => {
    const { log } = await runTurn(call("many", {}));
    expect(result(log, "many")).toMatchObject({
      isError: false,
      output: {
        made: maxDecisionsPerCall,
        error: "decide: at most 20 decisions per tool call, hook, schedule run or route request",
      },
    });
  }, 60_000);

  it("decides in a hook", async () => {
    const { sessionId } = await runTurn("hello");
    const kv = createKvStore(h.db, agent.id);
    await waitFor("the hook's rating", async () => (await kv.get(`rated:${sessionId}`)) !== undefined, {
      timeoutMs: 20_000,
    });
    expect(await kv.get(`rated:${sessionId}`)).toBe("useful");
  }, 60_000);

  it("decides a boolean and a score in a schedule's run", async () => {
    expect(await h.runtime.fireSchedule(agent.id, "gate")).toEqual({ ok: true, ran: true });
    expect(await createKvStore(h.db, agent.id).get("gate")).toEqual({ open: true, level: 7, midpoint: 5 });
  }, 60_000);
});

describe("ctx.getSession", () => {
  it("finds the caller's own session on its channel, and nothing of another principal, channel or id", async () => {
    const other = await startSession({
      db: h.db,
      runtime: h.runtime,
      agent,
      principal: { kind: "user", id: "someone-else" },
      body: { message: "[say: mine]" },
      baseUrl: "http://test",
    });
    const { sessionId, log } = await runTurn(call("peek", { otherId: other.sessionId }), "peeking");
    expect(result(log, "peek")).toMatchObject({
      isError: false,
      output: {
        own: { id: sessionId, channelId: "http", mode: "chat", title: "peeking", continuationToken: null },
        onAnotherChannel: null,
        someoneElses: null,
        unknown: null,
      },
    });
  }, 60_000);
});

describe("options that do nothing here", () => {
  it("starts the session of a send with admission, and says in the agent's logs that admission did nothing", async () => {
    const { log } = await runTurn(call("spawn", {}));
    const spawned = result(log, "spawn");
    expect(spawned).toMatchObject({ isError: false, output: { id: expect.stringMatching(/^ses_/) } });
    const id = (spawned!.output as { id: string }).id;
    expect(await h.db.session.findUnique({ where: { id }, select: { title: true } })).toEqual({ title: "spawned" });
    const warned = () =>
      h.db.agentLog.findMany({
        where: { agentId: agent.id, level: "warn", message: { contains: "admission" } },
        select: { source: true, name: true, message: true },
      });
    await waitFor("the warn line", async () => (await warned()).length > 0, { timeoutMs: 10_000 });
    expect(await warned()).toEqual([
      {
        source: "tool",
        name: "bot/tools/spawn.ts",
        message: expect.stringContaining(
          'send: admission "coalesce" did nothing: a send without a continuationToken always starts a new session',
        ),
      },
    ]);
  }, 60_000);

  it("refuses receive with a target, which the HTTP channel has no thread for", async () => {
    const fired = await h.runtime.fireSchedule(agent.id, "targeted");
    expect(fired).toMatchObject({
      ok: false,
      message: expect.stringContaining("targeted failed: receive: target names a thread of a channel"),
    });
    expect(await h.db.session.count({ where: { agentId: agent.id, ownerId: { startsWith: "schedule:" } } })).toBe(0);
  }, 60_000);
});
