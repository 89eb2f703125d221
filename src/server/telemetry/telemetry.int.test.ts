// OpenTelemetry export on the real engine (Postgres, Restate, a worker process started with the
// standard OTEL_* variables, sandboxes): a turn's spans reach a local OTLP receiver with their
// parent links turn → step → tool → agent code's own span, and the metrics a tool recorded through
// ctx.host.otel and @opentelemetry/api arrive with the session; without an endpoint, nothing is
// sent anywhere (docs/telemetry.md).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { waitFor } from "@/cli/start/wait";
import { decideApproval } from "@/server/approvals/decide-approval";
import type { AgentRef } from "@/server/sessions/start-session";
import { type OtlpReceiver, type ReceivedPoint, type ReceivedSpan, startOtlpReceiver } from "@/testing/otlp-receiver";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";

const counting: Record<string, string> = {
  "bot/instructions.md": "You count.",
  "bot/tools/count.ts": `import { defineTool } from "agentfold/tools";
import { z } from "zod";
import { metrics, trace } from "@opentelemetry/api";
const latency = metrics.getMeter("acme").createHistogram("acme.latency", { unit: "ms" });
export default defineTool({ description: "Counts", effect: "read", inputSchema: z.object({ n: z.number() }),
  async execute({ n }, ctx) {
    ctx.host.otel.tag("tier", "gold");
    ctx.host.otel.increment("acme.lookups", n, { region: "eu" });
    latency.record(12);
    return trace.getTracer("acme").startActiveSpan("acme.fetch", async (span) => {
      span.setAttribute("order", "A1");
      await new Promise((resolve) => setTimeout(resolve, 2));
      span.end();
      return { counted: n };
    });
  } });
`,
};

const approving: Record<string, string> = {
  "bot/instructions.md": "You refund.",
  "bot/tools/refund.ts": `import { defineTool } from "agentfold/tools";
import { z } from "zod";
export default defineTool({ description: "Refunds", effect: "write", needsApproval: true,
  inputSchema: z.object({ amount: z.number() }), async execute({ amount }) { return { refunded: amount }; } });
`,
};

const message = '[call count {"n":2}]';

async function completedTurn(h: Harness, agent: AgentRef) {
  const { sessionId } = await h.start(agent, { message });
  const log = await h.eventsUntil(sessionId, (events) => has("turn.completed")(events) || has("turn.failed")(events));
  expect(ofType(log, "turn.failed")).toEqual([]);
  return { sessionId, log };
}

describe("with OTEL_EXPORTER_OTLP_ENDPOINT set", () => {
  let receiver: OtlpReceiver;
  let h: Harness;
  let agent: AgentRef;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    h = await startTurnHarness({
      databaseUrl: inject("databaseUrl"),
      workerProcess: true,
      workerEnv: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "agentfold-test",
        OTEL_BSP_SCHEDULE_DELAY: "100",
        OTEL_METRIC_EXPORT_INTERVAL: "300",
      },
    });
    agent = await h.deploy("counting", counting);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  it("exports the turn's spans, turn → step → tool → agent code's span, with the session and agent", async () => {
    const { sessionId } = await completedTurn(h, agent);
    const ofSession = () => receiver.spans().filter((span) => span.attributes["agentfold.session.id"] === sessionId);
    let spans: ReceivedSpan[] = [];
    await waitFor(
      "the turn's spans",
      async () => (spans = ofSession()).some((span) => span.name.startsWith("invoke_agent")),
      {
        timeoutMs: 10_000,
      },
    );
    const one = (match: (span: ReceivedSpan) => boolean, what: string) => {
      const found = spans.filter(match);
      expect(found, what).toHaveLength(1);
      return found[0]!;
    };
    const turn = one((span) => span.name.startsWith("invoke_agent"), "one turn span");
    const step0 = one((span) => span.name === "step 0", "step 0");
    const step1 = one((span) => span.name === "step 1", "step 1");
    const tool = one((span) => span.name === "execute_tool count", "the tool call");
    const fetch = one((span) => span.name === "acme.fetch", "the tool's own span");
    const chats = spans.filter((span) => span.name === "chat local:scripted");

    expect(turn.parentSpanId).toBeUndefined();
    expect(step0.parentSpanId).toBe(turn.spanId);
    expect(step1.parentSpanId).toBe(turn.spanId);
    expect(tool.parentSpanId).toBe(step0.spanId);
    expect(fetch.parentSpanId).toBe(tool.spanId);
    expect(chats.map((chat) => chat.parentSpanId).sort()).toEqual([step0.spanId, step1.spanId].sort());
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([turn.traceId]));
    // The tool ran inside its step, and agent code's span inside the tool call.
    expect(tool.startMs).toBeGreaterThanOrEqual(step0.startMs);
    expect(fetch.startMs).toBeGreaterThanOrEqual(tool.startMs);
    expect(fetch.endMs).toBeLessThanOrEqual(tool.endMs);

    for (const span of [turn, step0, tool, fetch])
      expect(span.attributes, span.name).toMatchObject({
        "agentfold.session.id": sessionId,
        "agentfold.agent.id": agent.id,
      });
    expect(tool.attributes).toMatchObject({ "gen_ai.tool.name": "count", "agentfold.tool.outcome": "ok" });
    expect(turn.attributes).toMatchObject({
      "agentfold.run.outcome": "completed",
      "gen_ai.operation.name": "invoke_agent",
    });
    expect(fetch.attributes).toMatchObject({ order: "A1" });
    expect(fetch.scope).toBe("acme");
    expect(turn.resource).toMatchObject({ "service.name": "agentfold-test", "agentfold.process": "worker" });
  }, 60_000);

  it("exports what the tool counted, with its session and tags, and the turn's metrics", async () => {
    const { sessionId, log } = await completedTurn(h, agent);
    const latest = (match: (point: ReceivedPoint) => boolean) => receiver.points().filter(match).at(-1);
    const lookups = () =>
      latest((point) => point.name === "acme.lookups" && point.attributes["agentfold.session.id"] === sessionId);
    await waitFor("the tool's counter", async () => lookups() !== undefined, { timeoutMs: 10_000 });
    expect(lookups()).toMatchObject({
      type: "sum",
      value: 2,
      scope: "ctx.host.otel",
      attributes: { region: "eu", tier: "gold", "agentfold.agent.id": agent.id, "agentfold.session.id": sessionId },
    });
    expect(
      latest((point) => point.name === "acme.latency" && point.attributes["agentfold.session.id"] === sessionId),
    ).toMatchObject({ type: "histogram", count: 1, value: 12, scope: "acme", unit: "ms" });

    const ofAgent = (name: string) =>
      receiver.points().filter((point) => point.name === name && point.attributes["agentfold.agent.id"] === agent.id);
    // Cumulative: the last export has both turns of this agent (the test above ran one).
    await waitFor("both turns counted", async () => ofAgent("agentfold.turns").at(-1)?.value === 2, {
      timeoutMs: 10_000,
    });
    expect(ofAgent("agentfold.turns").at(-1)!.attributes).toMatchObject({ "agentfold.turn.outcome": "completed" });
    expect(ofAgent("agentfold.turn.duration").at(-1)).toMatchObject({ type: "histogram", count: 2, unit: "s" });
    expect(ofAgent("agentfold.tool.calls").at(-1)).toMatchObject({
      value: 2,
      attributes: { "gen_ai.tool.name": "count", "agentfold.tool.outcome": "ok" },
    });
    const usage = ofType(log, "turn.completed")[0]!.data.usage!;
    const inputTokens = ofAgent("agentfold.model.tokens").filter(
      (point) => point.attributes["gen_ai.token.type"] === "input",
    );
    expect(inputTokens.at(-1)!.value).toBe(2 * usage.inputTokens);
  }, 60_000);

  it("gives a turn that waited for an approval one span per run in one trace, and no work twice", async () => {
    const refunds = await h.deploy("approving", approving);
    const { sessionId } = await h.start(refunds, { message: '[call refund {"amount":5}]' });
    const parked = await h.eventsUntil(sessionId, has("action.approval_requested"));
    const callId = ofType(parked, "action.approval_requested")[0]!.data.callId;
    await decideApproval({
      db: h.db,
      runtime: h.runtime,
      agent: refunds,
      sessionId,
      callId,
      caller: { principal: h.owner, can: (action) => action === "sessions:write" },
      body: { decision: "approve" },
    });
    await h.eventsUntil(sessionId, has("turn.completed"));
    const ofSession = () => receiver.spans().filter((span) => span.attributes["agentfold.session.id"] === sessionId);
    const runs = () => ofSession().filter((span) => span.name.startsWith("invoke_agent"));
    // The eager run hands the turn over when it must wait; the invocation's run finishes it.
    await waitFor(
      "both runs' spans",
      async () => runs().some((run) => run.attributes["agentfold.run.outcome"] === "completed"),
      {
        timeoutMs: 10_000,
      },
    );
    const spans = ofSession();
    expect(
      runs()
        .map((run) => run.attributes["agentfold.run.outcome"])
        .sort(),
    ).toEqual(["completed", "handed_over"]);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    // Each model call and the tool ran once: what the first run did, the second replayed.
    expect(spans.filter((span) => span.name.startsWith("chat ")).map((span) => span.name)).toHaveLength(2);
    const tools = spans.filter((span) => span.name === "execute_tool refund");
    expect(tools).toHaveLength(1);
    const toolStep = spans.find((span) => span.spanId === tools[0]!.parentSpanId)!;
    expect(toolStep.name).toBe("step 0");
    const completedRun = runs().find((run) => run.attributes["agentfold.run.outcome"] === "completed")!;
    expect(toolStep.parentSpanId).toBe(completedRun.spanId);
  }, 60_000);
});

describe("without an OTLP endpoint", () => {
  let receiver: OtlpReceiver | undefined;
  let h: Harness;
  let agent: AgentRef;

  beforeAll(async () => {
    // Where the SDK would send by default (localhost:4318): nothing may arrive there.
    receiver = await startOtlpReceiver({ port: 4318 }).catch(() => undefined);
    h = await startTurnHarness({
      databaseUrl: inject("databaseUrl"),
      workerProcess: true,
      workerEnv: {
        OTEL_SERVICE_NAME: "agentfold-test",
        OTEL_BSP_SCHEDULE_DELAY: "50",
        OTEL_METRIC_EXPORT_INTERVAL: "100",
      },
    });
    agent = await h.deploy("counting", counting);
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  it("runs the turn, the tool's ctx.host.otel calls included, and sends nothing", async ({ skip }) => {
    const { log } = await completedTurn(h, agent);
    expect(ofType(log, "action.result")[0]!.data).toMatchObject({ output: { counted: 2 }, isError: false });
    await completedTurn(h, agent);
    if (!receiver) skip("port 4318 is taken on this machine");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver!.requests).toEqual([]);
  }, 60_000);
});
