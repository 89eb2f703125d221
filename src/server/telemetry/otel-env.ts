// The standard OpenTelemetry variables the platform reads itself (src/env.ts parses them with the
// rest): whether to export, where, over which protocol, and how often metrics go out. The SDK
// reads the others it defines (OTEL_EXPORTER_OTLP_HEADERS, timeouts, compression, OTEL_BSP_*,
// OTEL_TRACES_SAMPLER, OTEL_RESOURCE_ATTRIBUTES …) itself (docs/telemetry.md, "Configuration").
import { z } from "zod";

const endpoint = z.url({ protocol: /^https?$/ }).optional();
const protocol = z.enum(["http/protobuf", "http/json"], {
  message: "must be http/protobuf or http/json (grpc is not supported here)",
});
const exporter = z.enum(["otlp", "none"], { message: "must be otlp or none" }).default("otlp");
const milliseconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const otelEnvShape = {
  // The SDK's own off switch ("true", any case).
  OTEL_SDK_DISABLED: z
    .string()
    .default("false")
    .transform((value) => value.trim().toLowerCase() === "true"),
  // Export is on only when one of these is set: the base gets /v1/traces and /v1/metrics appended,
  // a signal's own endpoint is used as it is.
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol.default("http/protobuf"),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol.optional(),
  OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: protocol.optional(),
  OTEL_TRACES_EXPORTER: exporter,
  OTEL_METRICS_EXPORTER: exporter,
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_METRIC_EXPORT_INTERVAL: milliseconds(60_000),
  OTEL_METRIC_EXPORT_TIMEOUT: milliseconds(30_000),
};

/** The variables as parsed (env.ts's Env has them too). */
export type OtelEnv = z.infer<z.ZodObject<typeof otelEnvShape>>;
