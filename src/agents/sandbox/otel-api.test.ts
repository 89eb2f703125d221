import { context, metrics, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OtelBatch } from "./otel-batch";
import { flushOtel, otelScoped, otelServices, registerOtelApi } from "./otel-api";

let sent: { requestId: number; batch: OtelBatch }[] = [];
let answer = { enabled: true };
let nextId = 1;

beforeAll(() =>
  registerOtelApi(async (requestId, batch) => {
    sent.push({ requestId, batch });
    return answer;
  }),
);
afterAll(() => {
  metrics.disable();
  trace.disable();
  context.disable();
});
beforeEach(() => {
  sent = [];
});

/** A platform call as the runner serves it: scoped, then flushed before its answer. */
async function call(body: (requestId: number) => Promise<void> | void): Promise<number> {
  const requestId = nextId++;
  await otelScoped(async () => body(requestId))({ id: requestId, method: "runTool" });
  flushOtel(requestId);
  await Promise.resolve();
  return requestId;
}

const batchOf = (requestId: number) => sent.find((entry) => entry.requestId === requestId)?.batch;

describe("agent code's OpenTelemetry in the sandbox", () => {
  it("sums a counter per attribute set, keeps histogram values, and sends one batch per call", async () => {
    const requestId = await call(() => {
      const meter = metrics.getMeter("acme");
      const hits = meter.createCounter("acme.hits", { unit: "{hit}" });
      hits.add(2, { region: "eu" });
      hits.add(3, { region: "eu" });
      hits.add(1, { region: "us" });
      meter.createHistogram("acme.latency").record(12);
      meter.createHistogram("acme.latency").record(30);
    });
    expect(sent).toHaveLength(1);
    const series = batchOf(requestId)!.series.map((s) => ({
      name: s.name,
      attributes: s.attributes,
      values: s.values,
    }));
    expect(series).toEqual([
      { name: "acme.hits", attributes: { region: "eu" }, values: [5] },
      { name: "acme.hits", attributes: { region: "us" }, values: [1] },
      { name: "acme.latency", attributes: {}, values: [12, 30] },
    ]);
  });

  it("gives ctx.host.otel's counters, histograms and tags to the call's batch", async () => {
    const requestId = await call((id) => {
      const otel = otelServices(id);
      otel.increment("acme.turns");
      otel.increment("acme.tokens", 40, { model: "m" });
      otel.increment("acme.failed", { channel: "slack" });
      otel.histogram("acme.size", 7);
      otel.tag("tier", "gold");
      expect(() => otel.increment("not a name")).toThrow(/not a metric name/);
    });
    const batch = batchOf(requestId)!;
    expect(batch.tags).toEqual({ tier: "gold" });
    expect(batch.series.map((s) => [s.scope, s.kind, s.name, s.attributes, s.values])).toEqual([
      ["ctx.host.otel", "counter", "acme.turns", {}, [1]],
      ["ctx.host.otel", "counter", "acme.tokens", { model: "m" }, [40]],
      ["ctx.host.otel", "counter", "acme.failed", { channel: "slack" }, [1]],
      ["ctx.host.otel", "histogram", "acme.size", {}, [7]],
    ]);
  });

  it("nests active spans, and ends those left open when the call ends", async () => {
    const requestId = await call(async () => {
      const tracer = trace.getTracer("acme");
      await tracer.startActiveSpan("outer", async (outer) => {
        outer.setAttribute("order", "A1");
        await new Promise((resolve) => setTimeout(resolve, 5));
        tracer.startActiveSpan("inner", (inner) => inner.end());
        tracer.startSpan("left-open");
        outer.end();
      });
    });
    const spans = batchOf(requestId)!.spans;
    const byName = Object.fromEntries(spans.map((span) => [span.name, span]));
    expect(Object.keys(byName).sort()).toEqual(["inner", "left-open", "outer"]);
    expect(byName.inner!.parentId).toBe(byName.outer!.id);
    expect(byName["left-open"]!.parentId).toBe(byName.outer!.id);
    expect(byName.outer!.parentId).toBeUndefined();
    expect(byName.outer!.attributes).toEqual({ order: "A1" });
    expect(byName.outer!.endMs).toBeGreaterThanOrEqual(byName.outer!.startMs + 4);
  });

  it("keeps concurrent calls apart, and drops what is recorded outside any call", async () => {
    const counter = metrics.getMeter("acme").createCounter("acme.calls");
    counter.add(1);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = call(async () => {
      await gate;
      counter.add(1, { call: "first" });
    });
    const second = call(() => {
      counter.add(1, { call: "second" });
      release();
    });
    const [firstId, secondId] = await Promise.all([first, second]);
    expect(batchOf(firstId)!.series[0]!.attributes).toEqual({ call: "first" });
    expect(batchOf(secondId)!.series[0]!.attributes).toEqual({ call: "second" });
    expect(sent).toHaveLength(2);
  });

  it("records nothing more once the platform says it exports nothing", async () => {
    answer = { enabled: false };
    await call(() => metrics.getMeter("acme").createCounter("acme.hits").add(1));
    expect(sent).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    await call((id) => {
      metrics.getMeter("acme").createCounter("acme.hits").add(1);
      otelServices(id).increment("acme.more");
      trace.getTracer("acme").startSpan("quiet").end();
    });
    expect(sent).toHaveLength(1);
  });
});
