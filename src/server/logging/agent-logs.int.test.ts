// Agents' logs on the real engine (docs/logs.md): what a tool or hook prints in its sandbox is
// stored with its agent, session, turn, module and level, in order; a thrown error leaves its
// stack; one call's output is bounded; each agent keeps only its newest lines; a poll past the
// cursor reads only what came since.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { waitFor } from "@/cli/start/wait";
import type { AgentRef } from "@/server/sessions/start-session";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";
import { findAgentLogs } from "./find-agent-logs";

const folder = {
  "bot/instructions.md": "You print things.",
  "bot/tools/chatty.ts": `import { defineTool } from "agentfold/tools";
export default defineTool({ description: "prints", effect: "write", async execute(input) {
  for (let i = 0; i < (input.lines ?? 0); i++) console.log("line", i);
  if (input.say) console.log(input.say, { n: 1 });
  if (input.warn) console.warn(input.warn);
  if (input.fail) throw new Error(input.fail);
  return input.ret ?? "ok";
} });
`,
  "bot/hooks/notes.ts": `import { defineHook } from "agentfold/hooks";
export default defineHook({ events: { "turn.completed": async (event) => { console.info("turn done", event.turnId); } } });
`,
  "bot/hooks/moody.ts": `import { defineHook } from "agentfold/hooks";
export default defineHook({ events: { "action.result": async (event) => {
  if (event.data.output === "boom") throw new Error("the hook broke");
  if (event.data.output === "slow") await new Promise((resolve) => setTimeout(resolve, 5_000));
} } });
`,
};

const maxLines = 300;
let h: Harness;
let agent: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl"), logMaxLines: maxLines, hookTimeoutMs: 1_500 });
  agent = await h.deploy("printer", folder);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

async function turn(input: object): Promise<SessionEvent[]> {
  const { sessionId } = await h.start(agent, { message: `[call chatty ${JSON.stringify(input)}]` });
  return h.eventsUntil(sessionId, has("turn.completed"));
}

const logs = (query: Partial<Parameters<typeof findAgentLogs>[2]> = {}) =>
  findAgentLogs(h.db, agent.id, { limit: 1000, ...query });

describe("agent logs", () => {
  it("stores a tool's console.log with its session, turn and tool within a second", async () => {
    const log = await turn({ say: "hello from the tool" });
    const ended = Date.now();
    const sessionId = log[0]!.sessionId;
    const turnId = ofType(log, "turn.completed")[0]!.turnId;
    await waitFor(
      "the tool's line",
      async () => (await logs({ session: sessionId })).lines.some((line) => line.source === "tool"),
      { timeoutMs: 1_000 },
    );
    expect(Date.now() - ended).toBeLessThan(1_000);
    const { lines } = await logs({ session: sessionId, source: "tool" });
    expect(lines).toEqual([
      expect.objectContaining({
        level: "info",
        source: "tool",
        name: "bot/tools/chatty.ts",
        sessionId,
        turnId,
        message: "hello from the tool { n: 1 }",
      }),
    ]);
    // The hook's line, from the worker's dispatcher, carries the same session and turn.
    await waitFor("the hook's line", async () => (await logs({ session: sessionId, source: "hook" })).lines.length > 0);
    expect((await logs({ session: sessionId, source: "hook" })).lines[0]).toMatchObject({
      level: "info",
      name: "bot/hooks/notes.ts",
      turnId,
      message: `turn done ${turnId}`,
    });
  });

  it("keeps levels apart and a thrown error's stack; filters by level", async () => {
    const log = await turn({ warn: "careful", fail: "the tool broke" });
    const session = log[0]!.sessionId;
    await waitFor("the error line", async () => (await logs({ session, level: "error" })).lines.length > 0);
    const atLeastWarn = (await logs({ session, level: "warn", source: "tool" })).lines;
    expect(atLeastWarn.map((line) => line.level)).toEqual(["warn", "error"]);
    expect(atLeastWarn[0]!.message).toBe("careful");
    expect(atLeastWarn[1]!.message).toMatch(/^bot\/tools\/chatty\.ts threw: Error: the tool broke\n\s+at /);
    expect((await logs({ session, level: "error" })).lines).toHaveLength(1);
  });

  it("tells a hook's throw once, with its stack, and a hook's timeout from the platform", async () => {
    const thrown = (await turn({ ret: "boom" }))[0]!.sessionId;
    await waitFor(
      "the hook's error",
      async () => (await logs({ session: thrown, source: "hook", level: "error" })).lines.length > 0,
    );
    const errors = (await logs({ session: thrown, source: "hook", level: "error" })).lines;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      name: "bot/hooks/moody.ts",
      message: expect.stringMatching(/^bot\/hooks\/moody\.ts on action\.result threw: Error: the hook broke\n\s+at /),
    });

    const slow = (await turn({ ret: "slow" }))[0]!.sessionId;
    await waitFor(
      "the timeout's line",
      async () => (await logs({ session: slow, source: "hook", level: "error" })).lines.length > 0,
      { timeoutMs: 15_000 },
    );
    expect((await logs({ session: slow, source: "hook", level: "error" })).lines).toEqual([
      expect.objectContaining({
        name: "bot/hooks/moody.ts",
        message: expect.stringMatching(/^hook moody failed on action\.result #\d+: .*1\.5 s/),
      }),
    ]);
  });

  it("polls past the cursor: only the lines written since", async () => {
    const { nextCursor } = await logs();
    const log = await turn({ say: "after the cursor" });
    await waitFor("the new line", async () => (await logs({ cursor: nextCursor, source: "tool" })).lines.length > 0, {
      timeoutMs: 5_000,
    });
    const since = await logs({ cursor: nextCursor, source: "tool" });
    expect(since.lines.map((line) => line.message)).toEqual(["after the cursor { n: 1 }"]);
    expect(since.lines[0]!.sessionId).toBe(log[0]!.sessionId);
    expect(BigInt(since.nextCursor)).toBeGreaterThan(BigInt(nextCursor));
    // Nothing new since the answer's cursor (the hook's line may still come: look at the tool's).
    expect((await logs({ cursor: since.nextCursor, source: "tool" })).lines).toEqual([]);
  });

  it("bounds one call's output and keeps each agent's newest lines only", async () => {
    const log = await turn({ lines: 600 });
    const session = log[0]!.sessionId;
    await waitFor(
      "the dropped-lines note",
      async () =>
        (await logs({ session })).lines.some((line) => /more lines from this call were dropped/.test(line.message)),
      { timeoutMs: 5_000 },
    );
    const { lines } = await logs({ session, source: "tool" });
    expect(lines.at(-1)).toMatchObject({ level: "warn", message: expect.stringMatching(/^100 more lines/) });
    // 500 lines and the note came; the agent keeps its newest `maxLines` of all it has.
    await waitFor("the trim", async () => (await logs()).lines.length <= maxLines, { timeoutMs: 5_000 });
    const all = (await logs()).lines;
    expect(all.length).toBeGreaterThan(maxLines - 10);
    expect(all.filter((line) => line.sessionId === session && line.source === "tool").at(-2)!.message).toBe("line 499");
  });
});
