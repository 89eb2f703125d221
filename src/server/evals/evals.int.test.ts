// Evals on the real engine (docs/evals.md): each case runs in the version's sandbox, its t.send
// turns are real turns of eval-purpose sessions with the agent's own tools, every assertion is
// recorded, and the worker's executor keeps to the run's maxConcurrency.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { projectRoot } from "@/cli/start/project";
import { waitFor } from "@/cli/start/wait";
import { readFiles } from "@/testing/folders";
import { createKvStore } from "@/server/host-state/kv";
import type { AgentRef } from "@/server/sessions/start-session";
import { ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";
import { readEvalRun } from "./read-eval-run";
import { startEvalRun } from "./start-eval-run";
import type { EvalSelection } from "./schema";

let h: Harness;
let agent: AgentRef;

const evalFile = (body: string) => `import { defineEval, includes, matches } from "agentfold/evals";
import { z } from "zod";
export default ${body};
`;

const files = {
  "bot/instructions.md": "You answer the desk's questions.",
  "bot/tools/refund.ts": `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({ description: "Refunds", effect: "write", needsApproval: true,
  inputSchema: z.object({ amount: z.number() }), async execute(input) { return { refunded: input.amount }; } });
`,
  "bot/tools/count.ts": `import { defineTool } from "agentfold/tools";
export default defineTool({ description: "Counts", effect: "write",
  async execute(_input, ctx) {
    for (;;) {
      const entry = await ctx.host.kv.entry("count");
      const next = (entry?.value ?? 0) + 1;
      try { await ctx.host.kv.put("count", next, { ifVersion: entry?.version ?? 0 }); return { n: next }; } catch {}
    }
  } });
`,
  "bot/hooks/purpose.ts": `import { defineHook } from "agentfold/hooks";
export default defineHook({ events: { "message.completed": async (_event, ctx) => {
  await ctx.host.kv.put("purpose:" + ctx.session.id, ctx.session.purpose);
} } });
`,
  "evals/evals.config.ts": `import { defineEvalConfig } from "agentfold/evals";
export default defineEvalConfig({ maxConcurrency: 2 });
`,
  "evals/answers.eval.ts": evalFile(`defineEval({
  tags: ["smoke"],
  cases: [
    { id: "timing", test: async (t) => {
      await t.send("[say: Refunds take 5 days.]");
      t.succeeded();
      t.check(t.reply, includes("5 days"));
      t.check({ days: 5 }, matches(z.object({ days: z.number() })));
    } },
    { id: "wrong", test: async (t) => {
      await t.send("[say: Refunds take 5 days.]");
      t.check(t.reply, includes("tomorrow"));
      t.calledTool("lookup");
      t.succeeded();
    } },
    { id: "follow-up", test: async (t) => {
      const first = await t.send("[say: First.]");
      const second = await t.send("[say: Second.]");
      t.check(second.sessionId === first.sessionId ? "same" : "different", includes("same"));
      t.check(t.reply, includes("Second."));
      t.require(t.reply, includes("nowhere"));
      t.check("never reached", includes("x"));
    } },
  ],
})`),
  "evals/list.eval.ts": evalFile(`[
  defineEval({ test: async (t) => { await t.send("[say: one]"); t.check(t.reply, includes("one")); } }),
  defineEval({ cases: [{ id: "b", test: async (t) => { await t.send("[say: two]"); t.check(t.reply, includes("two")); } }] }),
]`),
  "evals/iterations.eval.ts": evalFile(`defineEval({
  iterations: 5,
  test: async (t) => {
    await t.send("[call count]");
    const n = t.events.find((e) => e.type === "action.result")?.data.output?.n;
    t.check(n % 2 === 0 ? "even" : "odd", includes("even"));
  },
})`),
  "evals/wide.eval.ts": evalFile(`defineEval({
  tags: ["wide"],
  cases: ["a", "b", "c", "d", "e"].map((id) => ({ id, test: async (t) => {
    await t.send("[delay 700ms] [say: ok]");
    t.succeeded();
  } })),
})`),
  "evals/unattended.eval.ts": evalFile(`defineEval({ test: async (t) => {
  await t.send('[call refund {"amount":5}]');
  const resolved = t.events.find((e) => e.type === "action.approval_resolved");
  t.check(resolved?.data.decision, includes("denied"));
  t.check(resolved?.data.reason, includes("unattended"));
  t.check(t.events.some((e) => e.type === "action.result" && !e.data.isError) ? "ran" : "did not run", includes("did not run"));
} })`),
  "evals/judged.eval.ts": evalFile(`defineEval({ test: async (t) => {
  await t.send("[say: Thank you for waiting, your refund is on its way.]");
  await t.judge(t.reply, 'Is the reply polite? [say: {"pass": true, "reason": "it thanks the customer"}]');
  await t.judge(t.reply, 'Does it name a date? [say: {"pass": false, "reason": "no date is given"}]');
} })`),
  "evals/broken.eval.ts": evalFile(`defineEval({ test: async () => { throw new Error("the fixture is missing"); } })`),
};

beforeAll(async () => {
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl") });
  agent = await h.deploy("evals", files);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

async function evaluate(selection: EvalSelection, on = agent) {
  const { runId } = await startEvalRun({
    db: h.db,
    agentId: on.id,
    principal: h.owner,
    startedBy: "the test",
    selection,
  });
  let done: Awaited<ReturnType<typeof readEvalRun>> | undefined;
  await waitFor(
    `eval run ${runId} to finish`,
    async () => (done = await readEvalRun(h.db, runId)).run.finishedAt !== null,
    { timeoutMs: 60_000, intervalMs: 100 },
  );
  return done!;
}

describe("an eval run", () => {
  it("records every assertion of a passing and a failing case; a failed require stops its case", async () => {
    const { run, results } = await evaluate({ ids: ["answers"] });
    expect(run).toMatchObject({ status: "failed", counts: { total: 3, passed: 1, failed: 2 } });
    const byId = Object.fromEntries(results.map((r) => [r.caseId, r]));
    expect(byId["answers/timing"]).toMatchObject({ status: "passed", error: null });
    expect(byId["answers/timing"]!.assertions).toEqual([
      { kind: "succeeded", pass: true, message: "every turn completed" },
      { kind: "check", pass: true, message: 'includes "5 days"' },
      { kind: "check", pass: true, message: "matches the schema" },
    ]);
    expect(byId["answers/wrong"]!.assertions).toEqual([
      { kind: "check", pass: false, message: 'expected "Refunds take 5 days." to include "tomorrow"' },
      { kind: "calledTool", pass: false, message: "expected a call to lookup; called: none" },
      { kind: "succeeded", pass: true, message: "every turn completed" },
    ]);
    const followUp = byId["answers/follow-up"]!;
    expect(followUp).toMatchObject({
      status: "failed",
      error: 'require failed: expected "Second." to include "nowhere"',
    });
    expect(followUp.assertions.map((a) => a.pass)).toEqual([true, true, false]);
    // Both sends went to one eval session.
    expect(followUp.sessionIds).toHaveLength(1);
    const session = await h.db.session.findUniqueOrThrow({ where: { id: followUp.sessionIds[0]! } });
    expect(session).toMatchObject({ purpose: "eval", ownerId: h.owner.id });
    expect(ofType(await h.events(session.id), "message.received")).toHaveLength(2);
  });

  it("names an exported array's evals sql/0000, sql/0001/<case>", async () => {
    const { run, results } = await evaluate({ ids: ["list"] });
    expect(results.map((r) => r.caseId)).toEqual(["list/0000", "list/0001/b"]);
    expect(run.status).toBe("passed");
  });

  it("iterations give a pass rate per case", async () => {
    const { run, results } = await evaluate({ ids: ["iterations"] });
    expect(results.map((r) => r.iteration)).toEqual([1, 2, 3, 4, 5]);
    // The counter handed out 1..5: two of them are even.
    expect(run.byCase.iterations).toEqual({ passed: 2, total: 5 });
    expect(run.passRate).toBeCloseTo(0.4);
  });

  it("runs at most maxConcurrency (2) cases' sessions at once", async () => {
    const { run, results } = await evaluate({ tags: ["wide"] });
    expect(run).toMatchObject({ status: "passed", counts: { total: 5, passed: 5 } });
    const spans = await Promise.all(
      results.map(async (result) => {
        const log = await h.events(result.sessionIds[0]!);
        return [Date.parse(log[0]!.at), Date.parse(log.at(-1)!.at)] as const;
      }),
    );
    const overlap = (at: number) => spans.filter(([from, to]) => from <= at && at < to).length;
    const most = Math.max(...spans.map(([from]) => overlap(from)));
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBe(2);
  });

  it("eval sessions reach hooks with purpose eval; a write tool needing approval is denied as unattended", async () => {
    const { run, results } = await evaluate({ ids: ["unattended"] });
    expect(run.status).toBe("passed");
    const sessionId = results[0]!.sessionIds[0]!;
    await waitFor(
      "the hook to see the session",
      async () => (await createKvStore(h.db, agent.id).get(`purpose:${sessionId}`)) === "eval",
    );
  });

  it("t.judge records the grading model's verdict and reason", async () => {
    const { results } = await evaluate({ ids: ["judged"] });
    expect(results[0]!.assertions).toEqual([
      { kind: "judge", pass: true, message: "it thanks the customer" },
      { kind: "judge", pass: false, message: "no date is given" },
    ]);
    expect(results[0]!.status).toBe("failed");
  });

  it("a case that throws is an error with its message; a selection of nothing is refused", async () => {
    const { run: broken, results } = await evaluate({ ids: ["broken"] });
    expect(broken.status).toBe("error");
    expect(results[0]).toMatchObject({ status: "error", error: "the fixture is missing" });
    await expect(
      startEvalRun({ db: h.db, agentId: agent.id, principal: h.owner, startedBy: "t", selection: { ids: ["nope"] } }),
    ).rejects.toThrow(/no eval case matches/);
  });
});

describe("examples/support-desk", () => {
  it("its evals pass", async () => {
    const desk = await h.deploy("desk", readFiles(path.join(projectRoot, "examples", "support-desk")));
    const { run, results } = await evaluate({}, desk);
    expect(results.map((r) => [r.caseId, r.status, r.error])).toEqual([
      ["refunds/asks-approval", "passed", null],
      ["refunds/explains-timing", "passed", null],
    ]);
    expect(run.status).toBe("passed");
  });
});

describe("a worker that dies mid-case", () => {
  it("leaves the case to the next worker, which runs it again from the start", async () => {
    const crashing = await startTurnHarness({
      databaseUrl: inject("databaseUrl"),
      workerProcess: true,
      evalLeaseMs: 2_000,
    });
    try {
      const slow = await crashing.deploy("slow-evals", {
        "bot/instructions.md": "You answer slowly.",
        "evals/slow.eval.ts": evalFile(`defineEval({ test: async (t) => {
  await t.send("[delay 3s] [say: done]");
  t.check(t.reply, includes("done"));
} })`),
      });
      const { runId } = await startEvalRun({
        db: crashing.db,
        agentId: slow.id,
        principal: crashing.owner,
        startedBy: "the test",
        selection: {},
      });
      await waitFor(
        "the case to start",
        async () => (await readEvalRun(crashing.db, runId)).results[0]!.status === "running",
      );
      await crashing.crashWorker();
      let done: Awaited<ReturnType<typeof readEvalRun>> | undefined;
      await waitFor(
        "the run to finish",
        async () => (done = await readEvalRun(crashing.db, runId)).run.finishedAt !== null,
        {
          timeoutMs: 60_000,
          intervalMs: 200,
        },
      );
      expect(done!.results[0]).toMatchObject({ status: "passed" });
      const row = await crashing.db.evalResult.findFirstOrThrow({ where: { runId } });
      expect(row.attempts).toBe(2);
    } finally {
      await crashing.close();
    }
  }, 120_000);
});
