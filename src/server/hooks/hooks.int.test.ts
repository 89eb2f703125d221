// Hooks and host state on the real engine (Postgres, Restate, a worker process, sandboxes):
// kv and files persist across sessions, principals, worker deaths and versions; hooks see each
// event at most once, in log order, and a throwing hook stops neither the next hook nor the turn;
// memoryHook journals every turn into a file the model reads; a tool's ctx.send starts a session
// and awaits its reply (docs/agent-folders.md, "Hooks" and "Host state: kv and files").
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { waitFor } from "@/cli/start/wait";
import { createFilesStore } from "@/server/host-state/files";
import { createKvStore } from "@/server/host-state/kv";
import { sendFromAgent } from "@/server/sessions/send-from-agent";
import { startSession, type AgentRef } from "@/server/sessions/start-session";
import { projectRoot } from "@/cli/start/project";
import { readFiles } from "@/testing/folders";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

const tool = (body: string) => `import { defineTool } from "agentfold/tools";
export default defineTool({ description: "test tool", effect: "write",
  async execute(input, ctx) { ${body} } });
`;

const hook = (events: string) => `import { defineHook } from "agentfold/hooks";
export default defineHook({ events: { ${events} } });
`;

const stateful: Record<string, string> = {
  "bot/instructions.md": "You keep state.",
  "bot/tools/remember.ts": tool("return ctx.host.kv.put(input.key, input.value);"),
  "bot/tools/recall.ts": tool("return { value: (await ctx.host.kv.get(input.key)) ?? null };"),
  "bot/tools/jot.ts": tool(
    "await ctx.host.files.write(input.path, input.text, { scope: input.scope }); return 'jotted';",
  ),
  "bot/tools/peek.ts": tool(
    "return { text: (await ctx.host.files.read(input.path, { scope: input.scope })) ?? null };",
  ),
  "bot/tools/delegate.ts": tool(
    "const handle = await ctx.send('http', input.message, { title: 'delegated' }); return { id: handle.id, ...(await handle.waitForCompletion()) };",
  ),
  // Discovery order is by path: all, boom, counter, memory.
  "bot/hooks/all.ts": hook(
    `"*": async (event, ctx) => ctx.host.files.append("seen/" + ctx.session.id + ".log", event.index + " " + event.type + "\\n", { scope: "deployment" })`,
  ),
  "bot/hooks/boom.ts": hook(`"turn.completed": async () => { throw new Error("the boom hook always fails"); }`),
  "bot/hooks/counter.ts": hook(`"turn.completed": async (event, ctx) => {
    const key = "turns:" + ctx.session.id;
    for (;;) {
      const entry = await ctx.host.kv.entry(key);
      try { await ctx.host.kv.put(key, (entry?.value ?? 0) + 1, { ifVersion: entry?.version ?? 0 }); return; }
      catch (error) { if (error.code !== "conflict") throw error; }
    }
  }`),
  "bot/hooks/memory.ts": `import { memoryHook } from "agentfold/memory";\nexport default memoryHook();\n`,
  // Sessions on this channel count their turns in the channel's state.
  "bot/channels/counted.ts": `import { defineChannel } from "agentfold/channels";
export default defineChannel({ state: { turns: 0 }, events: { "turn.completed": async (event, channel) => {
  channel.state.turns += 1;
  await channel.host.kv.put("channel-turns:" + channel.session.id, channel.state.turns);
} } });
`,
};

let h: Harness;
let agent: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl"), workerProcess: true, hookTimeoutMs: 2_000 });
  agent = await h.deploy("stateful", stateful);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const call = (toolName: string, input: object) => `[call ${toolName} ${JSON.stringify(input)}]`;
const completed = (n = 1) => has("turn.completed", n);

function output(log: SessionEvent[], toolName: string): unknown {
  return ofType(log, "action.result").find((e) => e.data.toolName === toolName)?.data.output;
}

async function runTurn(message: string, principal = h.owner): Promise<SessionEvent[]> {
  const { sessionId } = await startSession({
    db: h.db,
    runtime: h.runtime,
    agent,
    principal,
    body: { message },
    baseUrl: "http://test",
  });
  return h.eventsUntil(sessionId, (log) => completed()(log) || has("turn.failed")(log));
}

const kv = () => createKvStore(h.db, agent.id);

describe("host.kv", () => {
  it("is shared by every session and principal of the agent, across a worker's death and a new version", async () => {
    await runTurn(call("remember", { key: "profile:ada", value: { plan: "pro" } }));
    const other = { kind: "app" as const, id: "someone-else" };
    expect(output(await runTurn(call("recall", { key: "profile:ada" }), other), "recall")).toEqual({
      value: { plan: "pro" },
    });
    await h.crashWorker();
    agent = await h.deploy("stateful", { ...stateful, "bot/instructions.md": "You keep state, version two." });
    expect(output(await runTurn(call("recall", { key: "profile:ada" })), "recall")).toEqual({ value: { plan: "pro" } });
  }, 90_000);
});

describe("host.files", () => {
  it("keeps session files to their session and shares deployment files", async () => {
    const first = await runTurn(
      `${call("jot", { path: "notes/draft.txt", text: "mine" })} ${call("jot", { path: "shared.txt", text: "ours", scope: "deployment" })}`,
    );
    expect(output(first, "jot")).toBe("jotted");
    const second = await runTurn(
      `${call("peek", { path: "notes/draft.txt" })} ${call("peek", { path: "shared.txt", scope: "deployment" })}`,
    );
    const peeks = ofType(second, "action.result").map((e) => e.data.output);
    expect(peeks).toEqual([{ text: null }, { text: "ours" }]);
    const own = createFilesStore(h.db, { agentId: agent.id, sessionId: first[0]!.sessionId });
    expect(await own.read("notes/draft.txt")).toBe("mine");
  }, 60_000);
});

describe("hooks", () => {
  it("hand every event to a `*` hook once, in index order, and count turns despite a throwing hook", async () => {
    const log = await runTurn("hello hooks");
    const { sessionId } = log[0]!;
    const files = createFilesStore(h.db, { agentId: agent.id });
    const expected = log.map((e) => `${e.index} ${e.type}`).join("\n") + "\n";
    // The log is complete at turn.completed: nothing later is appended for this turn.
    await waitFor(
      "the * hook to see the whole log",
      async () => (await files.read(`seen/${sessionId}.log`, { scope: "deployment" })) === expected,
      { timeoutMs: 20_000 },
    );
    await waitFor("the counter hook to count the turn", async () => (await kv().get(`turns:${sessionId}`)) === 1, {
      timeoutMs: 20_000,
    });
  }, 60_000);

  it("skip a hook that runs past its time, and go on with the next", async () => {
    const slow = await h.deploy("slow-hooks", {
      "bot/instructions.md": "Slow hooks.",
      "bot/hooks/a-slow.ts": hook(
        `"message.received": async (event, ctx) => { await new Promise((r) => setTimeout(r, 10_000)); await ctx.host.kv.put("slow:" + ctx.session.id, true); }`,
      ),
      "bot/hooks/b-after.ts": hook(
        `"message.received": async (event, ctx) => ctx.host.kv.put("after:" + ctx.session.id, event.index)`,
      ),
    });
    const { sessionId } = await startSession({
      db: h.db,
      runtime: h.runtime,
      agent: slow,
      principal: h.owner,
      body: { message: "hello" },
      baseUrl: "http://test",
    });
    await h.eventsUntil(sessionId, completed());
    const slowKv = createKvStore(h.db, slow.id);
    // The harness gives hooks 2 s: the next hook runs once the slow one is given up on.
    await waitFor("the next hook to run", async () => (await slowKv.get(`after:${sessionId}`)) === 1, {
      timeoutMs: 20_000,
    });
    expect(await slowKv.get(`slow:${sessionId}`)).toBeUndefined();
  }, 60_000);

  it("count N turns as N, also when the worker is killed mid-turn", async () => {
    const started = await h.start(agent, { message: "turn one" });
    const { sessionId } = started;
    await h.eventsUntil(sessionId, completed(1));
    const second = await h.followUp(agent, sessionId, {
      message: "turn two",
      continuationToken: started.continuationToken,
    });
    await h.eventsUntil(sessionId, completed(2));
    const counted = async () => kv().get(`turns:${sessionId}`);
    // Killed while a turn runs, not while hooks still take the last one's end: that one is at most once.
    await waitFor("the counter hook to count two turns", async () => (await counted()) === 2, { timeoutMs: 20_000 });
    await h.followUp(agent, sessionId, {
      message: "turn three [delay 3s]",
      continuationToken: second.continuationToken,
    });
    await h.eventsUntil(sessionId, has("message.received", 3));
    await h.crashWorker();
    await h.eventsUntil(sessionId, completed(3), 60_000);
    await waitFor("the counter hook to count three turns", async () => (await counted()) === 3, { timeoutMs: 60_000 });
    // At most once: nothing is delivered again later.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await counted()).toBe(3);
  }, 150_000);
});

describe("a channel's state", () => {
  it("survives a kill -9 of the worker mid-turn", async () => {
    const send = (message: string) =>
      sendFromAgent({
        db: h.db,
        runtime: h.runtime,
        caller: { agentId: agent.id, slug: agent.slug, teamId: agent.teamId, principal: h.owner, channelId: "counted" },
        params: { channelId: "counted", message, options: { continuationToken: "count:1" } },
      });
    const { id } = await send("one");
    const turns = async () => kv().get(`channel-turns:${id}`);
    await waitFor("the first turn counted", async () => (await turns()) === 1, { timeoutMs: 20_000 });
    await send("two");
    await waitFor("the second turn counted", async () => (await turns()) === 2, { timeoutMs: 20_000 });
    await send("three [delay 3s]");
    await h.eventsUntil(id, has("message.received", 3));
    await h.crashWorker();
    await waitFor("the third turn counted from the saved state", async () => (await turns()) === 3, {
      timeoutMs: 60_000,
    });
  }, 120_000);
});

describe("memoryHook", () => {
  it("journals each turn with the documented fields, and the next turn's workspace shows the journal", async () => {
    const first = await runTurn("remember that the launch is on Friday");
    const { sessionId } = first[0]!;
    const files = createFilesStore(h.db, { agentId: agent.id });
    const entryOf = async () => {
      const journal = (await files.read("memory/journal.jsonl", { scope: "deployment" })) ?? "";
      return journal
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .find((entry) => entry.sessionId === sessionId);
    };
    await waitFor("the memory hook to journal the turn", async () => (await entryOf()) !== undefined, {
      timeoutMs: 20_000,
    });
    const entry = await entryOf();
    expect(Object.keys(entry).sort()).toEqual(
      ["at", "channelId", "result", "sessionId", "status", "title", "usage", "userMessage"].sort(),
    );
    expect(entry).toMatchObject({
      channelId: "http",
      status: "completed",
      userMessage: "remember that the launch is on Friday",
    });
    expect(Object.keys(entry.usage).sort()).toEqual([
      "cacheReadTokens",
      "cacheWriteTokens",
      "inputTokens",
      "outputTokens",
    ]);
    const next = await runTurn(call("read", { path: "memory/journal.jsonl" }));
    expect(JSON.stringify(output(next, "read"))).toContain(sessionId);
    // The copy follows the journal: a later turn of a session sees the entry its first turn added.
    const started = await h.start(agent, { message: "a session that reads itself" });
    await h.eventsUntil(started.sessionId, completed(1));
    const own = async () => (await files.read("memory/journal.jsonl", { scope: "deployment" })) ?? "";
    await waitFor("its first turn journaled", async () => (await own()).includes(started.sessionId), {
      timeoutMs: 20_000,
    });
    await h.followUp(agent, started.sessionId, {
      message: call("read", { path: "memory/journal.jsonl" }),
      continuationToken: started.continuationToken,
    });
    const later = await h.eventsUntil(started.sessionId, completed(2));
    expect(JSON.stringify(output(later, "read"))).toContain(started.sessionId);
  }, 60_000);
});

describe("ctx.send", () => {
  it("starts a second session as the tool's principal, whose reply the tool awaits", async () => {
    const log = await runTurn(call("delegate", { message: "[say: the delegate answers]" }));
    const answer = output(log, "delegate") as { id: string; status: string; result: unknown };
    expect(answer).toMatchObject({ status: "finished", result: "the delegate answers" });
    const delegated = await h.db.session.findUniqueOrThrow({ where: { id: answer.id } });
    expect(delegated).toMatchObject({
      agentId: agent.id,
      title: "delegated",
      ownerKind: h.owner.kind,
      ownerId: h.owner.id,
    });
  }, 60_000);
});

describe("examples/support-desk", () => {
  it("reads refunds from kv and audits every turn into a deployment file", async () => {
    const desk = await h.deploy("desk", readFiles(path.join(projectRoot, "examples", "support-desk")));
    const deskKv = createKvStore(h.db, desk.id);
    await deskKv.put("refunds/A-1002", [{ amount: 18, reason: "late", at: "2026-12-01T00:00:00Z", approvedBy: null }]);
    const { sessionId } = await startSession({
      db: h.db,
      runtime: h.runtime,
      agent: desk,
      principal: h.owner,
      body: { message: call("refund_history", { orderId: "A-1002" }) },
      baseUrl: "http://test",
    });
    const log = await h.eventsUntil(sessionId, completed());
    expect(output(log, "refund_history")).toMatchObject({ orderId: "A-1002", count: 1 });
    const files = createFilesStore(h.db, { agentId: desk.id });
    const audited = async () => (await files.read("audit/turns.jsonl", { scope: "deployment" })) ?? "";
    await waitFor("the audit hook to write the turn", async () => (await audited()).includes(sessionId), {
      timeoutMs: 20_000,
    });
    expect(JSON.parse((await audited()).trim().split("\n").at(-1)!)).toMatchObject({ sessionId, status: "completed" });
  }, 90_000);
});
