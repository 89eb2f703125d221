// The SDK side of telemetry.ts, loaded only when export is configured: providers with the OTLP
// exporters the configuration names. The exporters, the batch span processor and the tracer
// provider read the rest of their standard variables (headers, timeouts, OTEL_BSP_*, the sampler)
// from the environment themselves.
import crypto from "node:crypto";
import type { Attributes, SpanOptions } from "@opentelemetry/api";
import { OTLPMetricExporter as JsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtoMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { detectResources, envDetector, resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import { MeterProvider, type MetricReader, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  RandomIdGenerator,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_INSTANCE_ID, ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { attr } from "./attributes";
import type { TelemetryConfig } from "./config";
import type { SessionTags, Telemetry } from "./types";

export function telemetryFromConfig(config: TelemetryConfig): Telemetry {
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: "agentfold",
    [ATTR_SERVICE_INSTANCE_ID]: crypto.randomUUID(),
    [attr.process]: config.processKind,
  })
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(config.serviceName ? resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }) : null);
  const spanProcessors: SpanProcessor[] = [];
  if (config.traces) {
    const { url, protocol } = config.traces;
    const exporter = protocol === "http/json" ? new JsonTraceExporter({ url }) : new ProtoTraceExporter({ url });
    spanProcessors.push(new BatchSpanProcessor(exporter));
  }
  const metricReaders: MetricReader[] = [];
  if (config.metrics) {
    const { url, protocol, intervalMs, timeoutMs } = config.metrics;
    const exporter = protocol === "http/json" ? new JsonMetricExporter({ url }) : new ProtoMetricExporter({ url });
    metricReaders.push(
      new PeriodicExportingMetricReader({
        exporter,
        exportIntervalMillis: intervalMs,
        exportTimeoutMillis: Math.min(timeoutMs, intervalMs),
      }),
    );
  }
  return createTelemetry({ resource, spanProcessors, metricReaders });
}

/** Seconds, from a few milliseconds (a turn here takes ~10 ms) to the longest turns. */
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/** The handle over given processors and readers (tests pass in-memory exporters). */
export function createTelemetry(options: {
  resource?: Resource;
  spanProcessors: SpanProcessor[];
  metricReaders: MetricReader[];
}): Telemetry {
  // A root span's trace id is the one its caller derives (startRoot), read while it is created.
  const random = new RandomIdGenerator();
  let nextTraceId: string | undefined;
  const tracerProvider = new BasicTracerProvider({
    resource: options.resource,
    spanProcessors: options.spanProcessors,
    idGenerator: {
      generateTraceId: () => nextTraceId ?? random.generateTraceId(),
      generateSpanId: () => random.generateSpanId(),
    },
  });
  const meterProvider = new MeterProvider({ resource: options.resource, readers: options.metricReaders });
  const tracer = tracerProvider.getTracer("agentfold");
  const meter = meterProvider.getMeter("agentfold");
  const counter = (name: string, unit: string, description: string) =>
    meter.createCounter<Attributes>(name, { unit, description });
  return {
    tracer,
    startRoot(name: string, spanOptions: SpanOptions, traceKey: string) {
      nextTraceId = crypto.createHash("sha256").update(traceKey).digest("hex").slice(0, 32);
      try {
        return tracer.startSpan(name, { ...spanOptions, root: true });
      } finally {
        nextTraceId = undefined;
      }
    },
    instruments: {
      turns: counter("agentfold.turns", "{turn}", "Turns that ended, by outcome"),
      turnDuration: meter.createHistogram<Attributes>("agentfold.turn.duration", {
        unit: "s",
        description: "How long a turn's last run took, to its end",
        advice: { explicitBucketBoundaries: durationBuckets },
      }),
      tokens: counter("agentfold.model.tokens", "{token}", "Tokens of model steps, by type"),
      cost: counter("agentfold.model.cost", "USD", "What model steps cost, at the model's list price"),
      toolCalls: counter("agentfold.tool.calls", "{call}", "Tool calls that ran, by outcome"),
      toolErrors: counter("agentfold.tool.errors", "{call}", "Tool calls that answered an error"),
    },
    agentMeter: (scope) => meterProvider.getMeter(scope),
    agentTracer: (scope) => tracerProvider.getTracer(scope),
    sessionTags: sessionTags(),
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

const maxTaggedSessions = 10_000;

/** The tags of the sessions most recently tagged here (least recently tagged dropped first). */
function sessionTags(): SessionTags {
  const tags = new Map<string, Record<string, string>>();
  return {
    get: (sessionId) => tags.get(sessionId),
    add(sessionId, more) {
      const merged = { ...tags.get(sessionId), ...more };
      tags.delete(sessionId);
      tags.set(sessionId, merged);
      if (tags.size > maxTaggedSessions) tags.delete(tags.keys().next().value!);
    },
  };
}
