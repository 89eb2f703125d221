import { afterEach, describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "@/env";
import { type OtlpReceiver, startOtlpReceiver } from "@/testing/otlp-receiver";
import { recordAgentTelemetry } from "./agent-telemetry";
import { telemetryConfig } from "./config";
import { stepScope, toolCallScope, turnScope } from "./turn-telemetry";
import { startTelemetry } from "./telemetry";

const config = (variables: Record<string, string>) => telemetryConfig(parseEnv(variables), "worker");

describe("telemetry configuration", () => {
  it("exports nothing without an OTLP endpoint, or when the SDK is disabled", () => {
    expect(config({})).toBeUndefined();
    expect(config({ OTEL_SERVICE_NAME: "x", OTEL_METRIC_EXPORT_INTERVAL: "100" })).toBeUndefined();
    expect(config({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "TRUE" })).toBeUndefined();
    expect(
      config({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_TRACES_EXPORTER: "none",
        OTEL_METRICS_EXPORTER: "none",
      }),
    ).toBeUndefined();
  });

  it("derives each signal's URL and protocol as the OTLP exporter spec says", () => {
    expect(config({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toEqual({
      processKind: "worker",
      traces: { url: "http://collector:4318/v1/traces", protocol: "http/protobuf" },
      metrics: {
        url: "http://collector:4318/v1/metrics",
        protocol: "http/protobuf",
        intervalMs: 60_000,
        timeoutMs: 30_000,
      },
    });
    expect(
      config({
        OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: "http://metrics:9000/ingest",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "agents-eu",
        OTEL_METRIC_EXPORT_INTERVAL: "5000",
      }),
    ).toEqual({
      processKind: "worker",
      serviceName: "agents-eu",
      metrics: { url: "http://metrics:9000/ingest", protocol: "http/json", intervalMs: 5000, timeoutMs: 30_000 },
    });
  });

  it("refuses grpc with a message naming the variable", () => {
    expect(() => parseEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(EnvError);
    expect(() => parseEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL: must be http\/protobuf or http\/json \(grpc is not supported here\)/,
    );
  });

  it("starts no SDK without a configuration", async () => {
    expect(await startTelemetry(undefined)).toBeUndefined();
  });
});

describe("telemetry export", () => {
  let receiver: OtlpReceiver | undefined;
  afterEach(async () => {
    await receiver?.close();
  });

  async function exporting(protocol: "http/json" | "http/protobuf") {
    receiver = await startOtlpReceiver();
    const telemetry = await startTelemetry(
      config({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_METRIC_EXPORT_INTERVAL: "60000",
      }),
    );
    return { telemetry: telemetry!, receiver };
  }

  it("makes spans only for scopes that did work, all runs of a turn in one trace", async () => {
    const { telemetry, receiver } = await exporting("http/json");
    const turn = { sessionId: "ses_1", turnId: "turn_1" };
    const first = turnScope(telemetry, turn, Date.now());
    first.set({ "agentfold.agent.id": "agt_1" }, { shared: true });
    const replayed = stepScope(first, 0);
    const step = stepScope(first, 1);
    const tool = toolCallScope(step, { toolName: "lookup", callId: "call_1" });
    tool.context();
    recordAgentTelemetry(
      telemetry,
      { agentId: "agt_1", sessionId: "ses_1", parent: tool.context() },
      {
        series: [],
        tags: {},
        dropped: 0,
        spans: [
          {
            scope: "acme",
            id: "b",
            parentId: "a",
            name: "inner",
            kind: 0,
            startMs: 2,
            endMs: 3,
            attributes: {},
            events: [],
          },
          { scope: "acme", id: "a", name: "outer", kind: 0, startMs: 1, endMs: 4, attributes: {}, events: [] },
        ],
      },
    );
    tool.end();
    replayed.end();
    step.end();
    first.end();
    const second = turnScope(telemetry, turn, Date.now());
    second.context();
    second.end();
    turnScope(telemetry, turn, Date.now()).end();
    await telemetry.shutdown();

    const spans = receiver.spans();
    const named = (name: string) => spans.filter((span) => span.name === name);
    expect(spans.map((span) => span.name).sort()).toEqual([
      "execute_tool lookup",
      "inner",
      "invoke_agent",
      "invoke_agent",
      "outer",
      "step 1",
    ]);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const [runOne, runTwo] = named("invoke_agent");
    expect(runOne!.parentSpanId).toBeUndefined();
    expect(runTwo!.parentSpanId).toBeUndefined();
    expect(named("step 1")[0]!.parentSpanId).toBe(runOne!.spanId);
    expect(named("execute_tool lookup")[0]!.parentSpanId).toBe(named("step 1")[0]!.spanId);
    expect(named("outer")[0]!.parentSpanId).toBe(named("execute_tool lookup")[0]!.spanId);
    expect(named("inner")[0]!.parentSpanId).toBe(named("outer")[0]!.spanId);
    expect(named("execute_tool lookup")[0]!.attributes).toMatchObject({
      "agentfold.session.id": "ses_1",
      "agentfold.turn.id": "turn_1",
      "agentfold.agent.id": "agt_1",
      "gen_ai.tool.name": "lookup",
    });
    expect(named("inner")[0]!.attributes).toMatchObject({ "agentfold.session.id": "ses_1" });
  });

  it("files agent metrics under the call's session and agent, with the session's tags", async () => {
    const { telemetry, receiver } = await exporting("http/json");
    const series = (value: number, attributes: Record<string, string>) => ({
      scope: "ctx.host.otel",
      kind: "counter" as const,
      name: "acme.lookups",
      attributes,
      values: [value],
    });
    const batch = (value: number, tags: Record<string, string>, attributes: Record<string, string> = {}) => ({
      series: [series(value, attributes)],
      spans: [],
      tags,
      dropped: 0,
    });
    expect(
      recordAgentTelemetry(telemetry, { agentId: "agt_1", sessionId: "ses_1" }, batch(2, { tier: "gold" })),
    ).toEqual({
      enabled: true,
    });
    // Agent code cannot file its metrics under another session.
    recordAgentTelemetry(
      telemetry,
      { agentId: "agt_1", sessionId: "ses_1" },
      batch(3, {}, { "agentfold.session.id": "ses_x" }),
    );
    recordAgentTelemetry(telemetry, { agentId: "agt_1", sessionId: "ses_2" }, batch(5, {}));
    await telemetry.shutdown();
    const points = receiver.points().filter((point) => point.name === "acme.lookups");
    expect(points.map((point) => [point.attributes, point.value])).toEqual([
      [{ tier: "gold", "agentfold.agent.id": "agt_1", "agentfold.session.id": "ses_1" }, 5],
      [{ "agentfold.agent.id": "agt_1", "agentfold.session.id": "ses_2" }, 5],
    ]);
    expect(recordAgentTelemetry(undefined, { agentId: "agt_1" }, batch(1, {}))).toEqual({ enabled: false });
  });

  it("sends protobuf by default", async () => {
    const { telemetry, receiver } = await exporting("http/protobuf");
    const scope = turnScope(telemetry, { sessionId: "ses_1", turnId: "turn_1" }, Date.now());
    scope.context();
    scope.end();
    telemetry.instruments.turns.add(1);
    await telemetry.shutdown();
    expect(receiver.requests.map((request) => [request.path, request.contentType]).sort()).toEqual([
      ["/v1/metrics", "application/x-protobuf"],
      ["/v1/traces", "application/x-protobuf"],
    ]);
  });
});
