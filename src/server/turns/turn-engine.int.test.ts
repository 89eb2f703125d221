// The turn engine on real Postgres, Restate and sandbox processes, driven by the offline model's
// directives: tools (success, error, timeout, retries, invalid input), subagents, the result
// contract, dry-run, built-in workspace tools and skills.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionEvent } from "@/agents/sdk/events";
import { agentDir, workspaceDir } from "@/server/agents/storage";
import { poolOf } from "@/server/db";
import type { AgentRef } from "@/server/sessions/start-session";
import { engineAgent, strictAgent } from "@/testing/engine-agents";
import { ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

let h: Harness;
let agent: AgentRef;
let strict: AgentRef;

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("engine", engineAgent);
  strict = await h.deploy("strict", strictAgent);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const ended = (log: SessionEvent[]) => log.some((e) => e.type === "session.waiting");
const stateFile = (name: string) => path.join(agentDir(h.dataDir, agent.id), "state", name);
const readCount = (name: string) =>
  fs.existsSync(stateFile(name)) ? Number(fs.readFileSync(stateFile(name), "utf8")) : 0;

async function turn(message: string, options: { on?: AgentRef; dryRun?: boolean } = {}) {
  const started = await h.start(options.on ?? agent, { message, ...(options.dryRun ? { dryRun: true } : {}) });
  const log = await h.eventsUntil(started.sessionId, ended);
  return { sessionId: started.sessionId, log };
}

describe("tools in the sandbox", () => {
  it("runs a tool and feeds its result to the next model step, in lifecycle order", async () => {
    const { sessionId, log } = await turn('Where is my order? [call lookup {"orderId":"A1"}]');
    const types = log.map((e) => e.type).filter((t) => !t.endsWith(".appended"));
    expect(types).toEqual([
      "session.started",
      "message.received",
      "turn.started",
      "step.started",
      "reasoning.completed",
      "actions.requested",
      "action.result",
      "actions.completed",
      "step.completed",
      "step.started",
      "reasoning.completed",
      "step.completed",
      "message.completed",
      "turn.completed",
      "session.waiting",
    ]);
    const [requested] = ofType(log, "actions.requested");
    expect(requested!.data.calls).toEqual([
      { callId: expect.stringMatching(/^call_/), toolName: "lookup", args: { orderId: "A1" } },
    ]);
    expect(ofType(log, "action.result")[0]!.data).toEqual({
      callId: requested!.data.calls[0]!.callId,
      toolName: "lookup",
      output: { orderId: "A1", status: "shipped" },
      isError: false,
    });
    expect(ofType(log, "message.completed")[0]!.data.text).toContain('"status":"shipped"');
    const usage = ofType(log, "turn.completed")[0]!.data.usage!;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(log.map((e) => e.index)).toEqual(log.map((_, i) => i));
    // The final model step's last events and the turn's end commit together (one statement).
    const { rows } = await poolOf(h.db).query<{ tx: string }>(
      `SELECT xmin::text AS tx FROM session_events WHERE "sessionId" = $1 AND index >= $2`,
      [sessionId, log.findLastIndex((e) => e.type === "step.completed")],
    );
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((row) => row.tx)).size).toBe(1);
  });

  it("turns a thrown write into an error result without retrying it, and the turn goes on", async () => {
    const { log } = await turn("[call declined {}]");
    const [result] = ofType(log, "action.result");
    expect(result!.data).toMatchObject({
      toolName: "declined",
      isError: true,
      output: expect.stringContaining("card declined"),
    });
    expect(ofType(log, "action.tool_retry")).toEqual([]);
    expect(readCount(`declined-${result!.data.callId}`)).toBe(1);
    expect(ofType(log, "message.completed")[0]!.data.text).toContain("The declined tool failed: ");
    expect(ofType(log, "turn.completed")).toHaveLength(1);
  });

  it("retries a failing read with action.tool_retry until it succeeds", async () => {
    const { log } = await turn("[call flaky {}]");
    const retries = ofType(log, "action.tool_retry");
    expect(retries.map((e) => e.data.attempt)).toEqual([2, 3]);
    expect(retries[0]!.data.error).toContain("upstream hiccup");
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({ output: "steady now", isError: false });
  });

  it("gives up on a read after three attempts", async () => {
    const { log } = await turn("[call broken {}]");
    const [result] = ofType(log, "action.result");
    expect(ofType(log, "action.tool_retry")).toHaveLength(2);
    expect(result!.data).toMatchObject({ isError: true, output: expect.stringContaining("service down") });
    expect(readCount(`broken-${result!.data.callId}`)).toBe(3);
  });

  it("ends a tool that overruns its timeout with an error result", async () => {
    const { log } = await turn("[call slow {}]");
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      isError: true,
      output: expect.stringContaining("did not finish within 0.3 s"),
    });
    expect(ofType(log, "turn.completed")).toHaveLength(1);
  });

  it("refuses input that fails the tool's schema, without retrying", async () => {
    const { log } = await turn('[call lookup {"orderId": 5}]');
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      isError: true,
      output: expect.stringContaining("invalid tool input: orderId"),
    });
    expect(ofType(log, "action.tool_retry")).toEqual([]);
  });

  it("passes an MCP-style content envelope through as rich content", async () => {
    const { log } = await turn("[call rich {}]");
    expect(ofType(log, "action.result")[0]!.data.output).toEqual({
      content: [
        { type: "text", text: "line one" },
        { type: "text", text: "line two" },
      ],
    });
    expect(ofType(log, "message.completed")[0]!.data.text).toContain("line one line two");
  });

  it("stubs write tools in a dry-run session and still runs reads", async () => {
    const { log } = await turn('[call record {}] [call lookup {"orderId":"C3"}]', { dryRun: true });
    const results = ofType(log, "action.result").map((e) => e.data);
    expect(results[0]).toMatchObject({ toolName: "record", stubbed: true, isError: false });
    expect(results[1]).toMatchObject({ toolName: "lookup", output: { orderId: "C3", status: "shipped" } });
    expect(results[1]!.stubbed).toBeUndefined();
    expect(fs.existsSync(stateFile("record.log"))).toBe(false);
  });

  it("answers a dry run's write with the tool's own dryRunResult: a value, or its function of the input", async () => {
    const drafting = await h.deploy("drafting", {
      "bot/instructions.md": "You send emails.",
      "bot/tools/send_email.ts": `import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
import fs from "node:fs";
import path from "node:path";
export default defineTool({ description: "Sends an email", effect: "write", needsApproval: true,
  inputSchema: z.object({ to: z.string() }),
  async execute(input, ctx) { fs.appendFileSync(path.join(ctx.stateRoot, "sent.log"), input.to); return { sent: true }; },
  dryRunResult: async (input) => ({ sent: false, wouldSendTo: input.to }) });
`,
      "bot/tools/archive.ts": `import { defineTool } from "@cursor/bdk/tools";
export default defineTool({ description: "Archives", effect: "write", async execute() { return "archived"; },
  dryRunResult: { archived: 0, note: "dry run" } });
`,
    });
    const { log } = await turn('[call send_email {"to":"ada@example.com"}] [call archive {}]', {
      on: drafting,
      dryRun: true,
    });
    const results = ofType(log, "action.result").map((e) => e.data);
    expect(results).toMatchObject([
      {
        toolName: "send_email",
        stubbed: true,
        isError: false,
        output: { sent: false, wouldSendTo: "ada@example.com" },
      },
      { toolName: "archive", stubbed: true, isError: false, output: { archived: 0, note: "dry run" } },
    ]);
    // A stand-in needs no approval, and the real tool never ran.
    expect(ofType(log, "action.approval_requested")).toEqual([]);
    expect(fs.existsSync(path.join(agentDir(h.dataDir, drafting.id), "state", "sent.log"))).toBe(false);
  });
});

describe("built-in tools, skills and subagents", () => {
  it("writes and reads workspace files with the built-in tools", async () => {
    const { sessionId, log } = await turn(
      '[call write {"path":"notes/todo.txt","content":"buy milk"}] [call read {"path":"notes/todo.txt"}]',
    );
    const results = ofType(log, "action.result").map((e) => e.data);
    expect(results.map((r) => r.isError)).toEqual([false, false]);
    expect(String(results[1]!.output)).toContain("buy milk");
    expect(fs.readFileSync(path.join(workspaceDir(h.dataDir, agent.id, sessionId), "notes/todo.txt"), "utf8")).toBe(
      "buy milk",
    );
  });

  it('runs an execution: "agent" tool for the model; its script is in the workspace catalog', async () => {
    const { sessionId, log } = await turn('[call tally {"items":[1,2,3]}]');
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      toolName: "tally",
      output: { counted: 3 },
      isError: false,
    });
    const workspace = workspaceDir(h.dataDir, agent.id, sessionId);
    expect(fs.existsSync(path.join(workspace, ".agentfold/tools/tally.mjs"))).toBe(true);
    expect(fs.readFileSync(path.join(workspace, "AGENTS.md"), "utf8")).toContain("### tally");
  });

  it("lays a new session's workspace out in full before its first tool call sees it", async () => {
    // Hundreds of seed files take longer to write than the offline model takes to ask for the
    // glob: a layout done beside the first model step instead of before it shows here.
    const seeds = Array.from({ length: 300 }, (_, i) => `seeds/s${String(i).padStart(3, "0")}.txt`);
    const seeded = await h.deploy("seeded", {
      "bot/instructions.md": "You keep a seeded workspace.",
      ...Object.fromEntries(seeds.map((seed) => [`bot/sandbox/workspace/${seed}`, `seed ${seed}`])),
    });
    const { log } = await turn('[call glob {"pattern":"**"}]', { on: seeded });
    const found = String(ofType(log, "action.result")[0]!.data.output).split("\n");
    expect(found).toEqual(expect.arrayContaining([...seeds, "AGENTS.md", ".agentfold/prepared"]));
  });

  it("gives the next new sessions of a version workspaces laid out ahead of time, between turns", async () => {
    const stocked = await h.deploy("stocked", {
      "bot/instructions.md": "You keep a stocked workspace.",
      "bot/sandbox/workspace/notes/start.txt": "from the seed",
    });
    const listing = (log: SessionEvent[]) => String(ofType(log, "action.result")[0]!.data.output).split("\n").sort();
    const first = await turn('[call glob {"pattern":"**"}]', { on: stocked });
    // The first session laid its own out; the worker then lays copies out for the next ones.
    const stock = path.join(agentDir(h.dataDir, stocked.id), "workspace-stock", stocked.activeVersionId!);
    await expect
      .poll(() => (fs.existsSync(stock) ? fs.readdirSync(stock).filter((name) => !name.startsWith(".")).length : 0))
      .toBe(2);
    const before = new Date();
    const second = await turn('[call glob {"pattern":"**"}]', { on: stocked });
    const workspace = workspaceDir(h.dataDir, stocked.id, second.sessionId);
    // Laid out before the session existed (the marker records when), and the same as a fresh layout.
    expect(new Date(fs.readFileSync(path.join(workspace, ".agentfold/prepared"), "utf8")).getTime()).toBeLessThan(
      before.getTime(),
    );
    expect(listing(second.log)).toEqual(listing(first.log));
    expect(listing(second.log)).toEqual(
      expect.arrayContaining(["notes/start.txt", "AGENTS.md", ".agentfold/prepared"]),
    );
    expect(fs.readFileSync(path.join(workspace, "notes/start.txt"), "utf8")).toBe("from the seed");
  });

  it("loads a skill in full on demand", async () => {
    const { log } = await turn('[call skill {"name":"refunds"}]');
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({
      isError: false,
      output: expect.stringContaining("within 5 days"),
    });
  });

  it("delegates to a subagent whose tool calls carry parentCallId", async () => {
    const { log } = await turn('[subagent researcher [call lookup {"orderId":"B2"}]]');
    const [called] = ofType(log, "subagent.called");
    expect(called!.data).toMatchObject({ subagent: "researcher", prompt: '[call lookup {"orderId":"B2"}]' });
    const taskCallId = called!.data.callId;
    const nested = ofType(log, "actions.requested")
      .flatMap((e) => e.data.calls)
      .filter((c) => c.parentCallId === taskCallId);
    expect(nested).toEqual([
      { callId: expect.any(String), toolName: "lookup", args: { orderId: "B2" }, parentCallId: taskCallId },
    ]);
    expect(nested[0]!.callId).not.toBe(taskCallId);
    const [completed] = ofType(log, "subagent.completed");
    expect(completed!.data).toMatchObject({
      callId: taskCallId,
      subagent: "researcher",
      result: expect.stringContaining("shipped"),
    });
    expect(ofType(log, "action.result").find((e) => e.data.callId === taskCallId)!.data).toMatchObject({
      toolName: "task",
      isError: false,
    });
    // The subagent's text is its answer to the parent, not part of the reply stream.
    expect(ofType(log, "message.completed")[0]!.data.text).toContain("The task tool returned");
  });
});

describe("the result contract", () => {
  it("repairs a rejected reply in the same turn and records commit's value", async () => {
    const { log } = await turn("[say: a first draft]", { on: strict });
    expect(ofType(log, "step.started").map((e) => e.data.repair)).toEqual([undefined, "say APPROVED"]);
    expect(ofType(log, "turn.completed")[0]!.data.result).toEqual({ length: expect.any(Number) });
    expect(ofType(log, "message.completed")[0]!.data.text).toContain("APPROVED");
  });

  it("fails the turn when the reply is rejected a third time", async () => {
    const { log } = await turn("[say: NEVER]", { on: strict });
    expect(ofType(log, "step.started")).toHaveLength(3);
    expect(ofType(log, "turn.failed")[0]!.data).toEqual({
      message: expect.stringContaining("rejected the reply 3 times"),
      status: "error",
      code: "result_rejected",
    });
  });

  it("fails the turn on an empty reply and on a commit that throws", async () => {
    const empty = await turn("[say:]", { on: strict });
    expect(ofType(empty.log, "turn.failed")[0]!.data.message).toContain("the reply is empty");
    const thrown = await turn("[say: APPROVED but explode]", { on: strict });
    expect(ofType(thrown.log, "turn.failed")[0]!.data.message).toContain("commit exploded");
  });
});
