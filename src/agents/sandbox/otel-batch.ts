// What agent code's metrics, tags and spans look like on their way out of the sandbox: one
// `otel.record` host call per platform call that recorded anything, sent as the call ends
// (otel-api.ts), exported by the platform's SDK with the call's session and agent
// (src/server/telemetry/agent-telemetry.ts). Types only: both sides import them.

export type OtelAttributeValue = string | number | boolean | (string | number | boolean)[];
export type OtelAttributes = Record<string, OtelAttributeValue>;

export type OtelInstrumentKind = "counter" | "upDownCounter" | "histogram" | "gauge";

/** One instrument and attribute set: a counter's values are summed in the sandbox, a gauge keeps
 * its last value, a histogram every value. `scope` is the meter's name (`getMeter(name)`). */
export type OtelSeries = {
  scope: string;
  kind: OtelInstrumentKind;
  name: string;
  unit?: string;
  description?: string;
  attributes: OtelAttributes;
  values: number[];
};

/** A span agent code ended (or left open when the call ended). Ids are the sandbox's own, valid
 * within the batch only: the platform gives each span its real ids. Times are epoch ms. */
export type OtelSpanRecord = {
  scope: string;
  id: string;
  parentId?: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: OtelAttributes;
  events: { name: string; timeMs: number; attributes: OtelAttributes }[];
  status?: { code: number; message?: string };
};

export type OtelBatch = {
  series: OtelSeries[];
  spans: OtelSpanRecord[];
  /** ctx.host.otel.tag: attributes of every later metric of the session. */
  tags: Record<string, string>;
  /** Records over the per-call bounds, left out. */
  dropped: number;
};

/** The platform's answer: `enabled: false` (no exporter configured) stops the sandbox recording. */
export type OtelRecordAnswer = { enabled: boolean };
