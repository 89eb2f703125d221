// Whether and where a process exports telemetry, from the standard OTEL_* variables as env.ts
// parsed them: nothing unless an OTLP endpoint is set (docs/telemetry.md, "Configuration").
import type { OtelEnv } from "./otel-env";

export type OtlpProtocol = "http/protobuf" | "http/json";
export type SignalExport = { url: string; protocol: OtlpProtocol };

export type TelemetryConfig = {
  /** OTEL_SERVICE_NAME; `agentfold` otherwise (or service.name in OTEL_RESOURCE_ATTRIBUTES). */
  serviceName?: string;
  /** Which process exports (worker, web): the resource's agentfold.process. */
  processKind: string;
  traces?: SignalExport;
  metrics?: SignalExport & { intervalMs: number; timeoutMs: number };
};

/** Undefined when nothing is to be exported: then no SDK starts and nothing is buffered. */
export function telemetryConfig(env: OtelEnv, processKind: string): TelemetryConfig | undefined {
  if (env.OTEL_SDK_DISABLED) return undefined;
  const signal = (own: string | undefined, suffix: string, protocol: OtlpProtocol | undefined) => {
    const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
    const url = own ?? (base ? `${base.replace(/\/+$/, "")}/${suffix}` : undefined);
    return url ? { url, protocol: protocol ?? env.OTEL_EXPORTER_OTLP_PROTOCOL } : undefined;
  };
  const traces =
    env.OTEL_TRACES_EXPORTER === "none"
      ? undefined
      : signal(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "v1/traces", env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL);
  const metrics =
    env.OTEL_METRICS_EXPORTER === "none"
      ? undefined
      : signal(env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, "v1/metrics", env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL);
  if (!traces && !metrics) return undefined;
  return {
    ...(env.OTEL_SERVICE_NAME ? { serviceName: env.OTEL_SERVICE_NAME } : {}),
    processKind,
    ...(traces ? { traces } : {}),
    ...(metrics
      ? {
          metrics: {
            ...metrics,
            intervalMs: env.OTEL_METRIC_EXPORT_INTERVAL,
            timeoutMs: env.OTEL_METRIC_EXPORT_TIMEOUT,
          },
        }
      : {}),
  };
}
