// The platform's OpenTelemetry handle (docs/telemetry.md): its tracer and instruments, and what
// agent code's host calls record. Absent (undefined) unless an OTLP endpoint is configured: the
// SDK is then never loaded, and every call site is one optional-chained no-op.
import type { TelemetryConfig } from "./config";
import type { Telemetry } from "./types";

export type { PlatformInstruments, SessionTags, Telemetry } from "./types";

/** Starts the SDK when the configuration asks for export; undefined (and nothing loaded) otherwise. */
export async function startTelemetry(config: TelemetryConfig | undefined): Promise<Telemetry | undefined> {
  if (!config) return undefined;
  const { telemetryFromConfig } = await import("./create-telemetry");
  return telemetryFromConfig(config);
}
