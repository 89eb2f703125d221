// What agent code recorded during one platform call (src/agents/sandbox/otel-api.ts), exported
// by this process's SDK: metrics with the call's agent and session (and the session's tags),
// spans under the call's own span when it has one (a tool call's). The platform's attributes win
// over agent code's: a tool cannot file its metrics under another session.
import { type Attributes, type Context, ROOT_CONTEXT, type Span, trace } from "@opentelemetry/api";
import type { OtelBatch, OtelRecordAnswer, OtelSeries, OtelSpanRecord } from "@/agents/sandbox/otel-batch";
import { attr } from "./attributes";
import type { Telemetry } from "./telemetry";

/** The call the batch belongs to, as the platform knows it (never as the sandbox says). */
export type AgentCallScope = { agentId: string; sessionId?: string; parent?: Context };

const instrumentName = /^[A-Za-z][A-Za-z0-9_./-]{0,254}$/;

export function recordAgentTelemetry(
  telemetry: Telemetry | undefined,
  call: AgentCallScope,
  batch: OtelBatch,
): OtelRecordAnswer {
  if (!telemetry) return { enabled: false };
  const platform: Attributes = {
    [attr.agentId]: call.agentId,
    ...(call.sessionId ? { [attr.sessionId]: call.sessionId } : {}),
  };
  if (call.sessionId && batch.tags && Object.keys(batch.tags).length > 0)
    telemetry.sessionTags.add(call.sessionId, stringRecord(batch.tags));
  const tags = call.sessionId ? telemetry.sessionTags.get(call.sessionId) : undefined;
  for (const series of Array.isArray(batch.series) ? batch.series : [])
    recordSeries(telemetry, series, { ...tags, ...plainAttributes(series.attributes), ...platform });
  if (Array.isArray(batch.spans) && batch.spans.length > 0) recordSpans(telemetry, batch.spans, call, platform);
  return { enabled: true };
}

type Instrument = {
  add?: (value: number, attributes: Attributes) => void;
  record?: (value: number, attributes: Attributes) => void;
};

/** Agent code's instruments, per telemetry handle; names are agent code's choice, so bounded. */
const instruments = new WeakMap<Telemetry, Map<string, Instrument>>();
const maxInstruments = 1_000;

function instrumentOf(telemetry: Telemetry, series: OtelSeries): Instrument | undefined {
  let known = instruments.get(telemetry);
  if (!known) instruments.set(telemetry, (known = new Map()));
  const key = JSON.stringify([series.scope, series.kind, series.name, series.unit, series.description]);
  const found = known.get(key);
  if (found || known.size >= maxInstruments) return found;
  const meter = telemetry.agentMeter(String(series.scope || "agent"));
  const options = {
    ...(typeof series.unit === "string" ? { unit: series.unit } : {}),
    ...(typeof series.description === "string" ? { description: series.description } : {}),
  };
  const created: Instrument | undefined =
    series.kind === "counter"
      ? meter.createCounter(series.name, options)
      : series.kind === "upDownCounter"
        ? meter.createUpDownCounter(series.name, options)
        : series.kind === "gauge"
          ? meter.createGauge(series.name, options)
          : series.kind === "histogram"
            ? meter.createHistogram(series.name, options)
            : undefined;
  if (created) known.set(key, created);
  return created;
}

function recordSeries(telemetry: Telemetry, series: OtelSeries, attributes: Attributes): void {
  if (typeof series?.name !== "string" || !instrumentName.test(series.name) || !Array.isArray(series.values)) return;
  const values = series.values.filter((value) => typeof value === "number" && Number.isFinite(value));
  const instrument = values.length > 0 ? instrumentOf(telemetry, series) : undefined;
  if (!instrument) return;
  // Counters were summed in the sandbox, a gauge kept its last value; a histogram takes each one.
  if (instrument.add) instrument.add(sum(values), attributes);
  else if (series.kind === "gauge") instrument.record!(values.at(-1)!, attributes);
  else for (const value of values) instrument.record!(value, attributes);
}

/** Parents before children; a span whose parent is not in the batch hangs under the call's span. */
function recordSpans(telemetry: Telemetry, records: OtelSpanRecord[], call: AgentCallScope, platform: Attributes) {
  const byId = new Map(records.map((record) => [record.id, record]));
  const started = new Map<string, Context>();
  // Ids are the sandbox's: a cycle among them ends at the call's span.
  const visiting = new Set<string>();
  const start = (record: OtelSpanRecord): Context => {
    visiting.add(record.id);
    const parent = record.parentId ? byId.get(record.parentId) : undefined;
    const parentContext =
      parent && !visiting.has(parent.id) ? (started.get(parent.id) ?? start(parent)) : (call.parent ?? ROOT_CONTEXT);
    const span: Span = telemetry.agentTracer(String(record.scope || "agent")).startSpan(
      String(record.name),
      {
        kind: record.kind,
        startTime: record.startMs,
        attributes: { ...plainAttributes(record.attributes), ...platform },
      },
      parentContext,
    );
    for (const event of Array.isArray(record.events) ? record.events : [])
      span.addEvent(String(event.name), plainAttributes(event.attributes), event.timeMs);
    if (record.status) span.setStatus({ code: record.status.code, message: record.status.message });
    span.end(record.endMs);
    const context = trace.setSpan(parentContext, span);
    started.set(record.id, context);
    return context;
  };
  for (const record of records) if (!started.has(record.id)) start(record);
}

function plainAttributes(value: unknown): Attributes {
  if (typeof value !== "object" || value === null) return {};
  const plain: Attributes = {};
  for (const [key, item] of Object.entries(value))
    if (["string", "number", "boolean"].includes(typeof item) || Array.isArray(item)) plain[key] = item;
  return plain;
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)]));
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
