// The telemetry handle's shape (telemetry.ts starts one; create-telemetry.ts builds it): the seam
// the turn engine, host calls and the SDK side share, as types only.
import type { Attributes, Counter, Histogram, Meter, Span, SpanOptions, Tracer } from "@opentelemetry/api";

export type Telemetry = {
  tracer: Tracer;
  /** A root span in the trace whose id derives from `traceKey` (a turn id): every run of a turn
   * lands in the same trace. */
  startRoot: (name: string, options: SpanOptions, traceKey: string) => Span;
  instruments: PlatformInstruments;
  /** Agent code's instrumentation scopes (its `getMeter(name)`, `getTracer(name)`). */
  agentMeter: (scope: string) => Meter;
  agentTracer: (scope: string) => Tracer;
  /** ctx.host.otel.tag: attributes of a session's later metrics, kept in this process. */
  sessionTags: SessionTags;
  /** Exports what is pending and stops. */
  shutdown: () => Promise<void>;
};

export type PlatformInstruments = {
  turns: Counter<Attributes>;
  turnDuration: Histogram<Attributes>;
  tokens: Counter<Attributes>;
  cost: Counter<Attributes>;
  toolCalls: Counter<Attributes>;
  toolErrors: Counter<Attributes>;
};

export type SessionTags = {
  get: (sessionId: string) => Record<string, string> | undefined;
  add: (sessionId: string, tags: Record<string, string>) => void;
};
