// OpenTelemetry inside the sandbox (docs/telemetry.md, "Agent code"). Agent code has no network
// but the egress proxy, so its metrics and spans travel to the platform over host calls: both
// `ctx.host.otel` and the standard `@opentelemetry/api` (the bundle resolves it to the platform's
// copy, whose global providers registerOtelApi sets) record into a buffer per platform call,
// sent as one `otel.record` host call when the call ends. This file runs ONLY in the sandbox.
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import {
  type Context,
  type ContextManager,
  context,
  createContextKey,
  type Meter,
  type MetricOptions,
  metrics,
  ROOT_CONTEXT,
  type Span,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  trace,
  type Tracer,
} from "@opentelemetry/api";
import type {
  OtelAttributes,
  OtelAttributeValue,
  OtelBatch,
  OtelInstrumentKind,
  OtelRecordAnswer,
  OtelSpanRecord,
} from "./otel-batch";

/** Per call: more than this is dropped (and counted in the batch). */
export const otelBounds = { series: 1_000, values: 10_000, spans: 1_000, events: 128, attributes: 64 };

/** OpenTelemetry's instrument name syntax. */
const instrumentName = /^[A-Za-z][A-Za-z0-9_./-]{0,254}$/;

type Buffer = {
  series: Map<string, OtelBatch["series"][number]>;
  spans: OtelSpanRecord[];
  open: Set<SandboxSpan>;
  tags: Record<string, string>;
  values: number;
  dropped: number;
};

type Send = (requestId: number, batch: OtelBatch) => Promise<unknown>;

const requestKey = createContextKey("agentfold platform request");
const buffers = new Map<number, Buffer>();
/** Calls now running: what is recorded for a call that has ended is dropped. */
const live = new Set<number>();
let send: Send | undefined;
/** The platform said it exports nothing: nothing is recorded any more. */
let isDisabled = false;

class RequestContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    scope: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(scope, () => fn.apply(thisArg, args));
  }
  bind<T>(scope: Context, target: T): T {
    if (typeof target !== "function") return target;
    const manager = this;
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(scope, () => (target as (...a: unknown[]) => unknown).apply(this, args));
    } as T;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

/** Sets the global meter and tracer providers and the context manager of `@opentelemetry/api`. */
export function registerOtelApi(sender: Send): void {
  send = sender;
  context.setGlobalContextManager(new RequestContextManager());
  metrics.setGlobalMeterProvider({ getMeter: (name) => sandboxMeter(name) });
  trace.setGlobalTracerProvider({ getTracer: (name) => sandboxTracer(name) });
}

/** Runs a platform call's handler with its request id in the active context. */
export function otelScoped<R extends { id?: unknown; method?: unknown }>(
  handler: (request: R) => unknown,
): (request: R) => unknown {
  return (request) => {
    if (typeof request?.id !== "number" || typeof request.method !== "string") return handler(request);
    const requestId = request.id;
    live.add(requestId);
    return context.with(ROOT_CONTEXT.setValue(requestKey, requestId), () => handler(request));
  };
}

/** Sends what the call recorded, before its answer (IPC keeps the order): the platform reads the
 * call's context when the host call arrives, while the call is still its. */
export function flushOtel(requestId: number): void {
  live.delete(requestId);
  const buffer = buffers.get(requestId);
  if (!buffer) return;
  buffers.delete(requestId);
  const now = Date.now();
  for (const span of buffer.open) span.end(now);
  const batch: OtelBatch = {
    series: [...buffer.series.values()],
    spans: buffer.spans,
    tags: buffer.tags,
    dropped: buffer.dropped,
  };
  send?.(requestId, batch).then(
    (answer) => void ((answer as OtelRecordAnswer | null)?.enabled === false && (isDisabled = true)),
    () => undefined,
  );
}

function bufferOf(requestId: unknown): Buffer | undefined {
  if (isDisabled || typeof requestId !== "number" || !live.has(requestId)) return undefined;
  let buffer = buffers.get(requestId);
  if (!buffer) {
    buffer = { series: new Map(), spans: [], open: new Set(), tags: {}, values: 0, dropped: 0 };
    buffers.set(requestId, buffer);
  }
  return buffer;
}

const activeRequest = (scope?: Context) => (scope ?? context.active()).getValue(requestKey);

function record(
  requestId: unknown,
  series: { scope: string; kind: OtelInstrumentKind; name: string } & MetricOptions,
  value: number,
  attributes: unknown,
): void {
  const buffer = bufferOf(requestId);
  if (!buffer || !Number.isFinite(value) || !instrumentName.test(series.name)) return;
  if (series.kind === "counter" && value < 0) return;
  const clean = cleanAttributes(attributes);
  const key = `${series.scope}\0${series.kind}\0${series.name}\0${JSON.stringify(clean)}`;
  let entry = buffer.series.get(key);
  if (!entry) {
    if (buffer.series.size >= otelBounds.series) return void buffer.dropped++;
    entry = {
      scope: series.scope,
      kind: series.kind,
      name: series.name,
      ...(series.unit ? { unit: series.unit } : {}),
      ...(series.description ? { description: series.description } : {}),
      attributes: clean,
      values: [],
    };
    buffer.series.set(key, entry);
  }
  if (series.kind === "histogram") {
    if (buffer.values >= otelBounds.values) return void buffer.dropped++;
    buffer.values++;
    entry.values.push(value);
  } else if (series.kind === "gauge") {
    entry.values = [value];
  } else {
    entry.values = [(entry.values[0] ?? 0) + value];
  }
}

function cleanAttributes(attributes: unknown): OtelAttributes {
  const clean: OtelAttributes = {};
  if (typeof attributes !== "object" || attributes === null) return clean;
  let count = 0;
  for (const [key, value] of Object.entries(attributes)) {
    if (count >= otelBounds.attributes) break;
    const kept = attributeValue(value);
    if (kept !== undefined) (clean[key] = kept), count++;
  }
  return clean;
}

function attributeValue(value: unknown): OtelAttributeValue | undefined {
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value)) {
    const items = value.filter((item) => ["string", "number", "boolean"].includes(typeof item));
    return items as (string | number | boolean)[];
  }
  return undefined;
}

function sandboxMeter(scope: string): Meter {
  const instrument =
    (kind: OtelInstrumentKind) =>
    (name: string, options: MetricOptions = {}) => {
      const series = { scope, kind, name, unit: options.unit, description: options.description };
      const write = (value: number, attributes?: unknown, scopeContext?: Context) =>
        record(activeRequest(scopeContext), series, value, attributes);
      return { add: write, record: write };
    };
  // The sandbox has no collection cycle: observable instruments accept callbacks and never call them.
  const observable = () => ({ addCallback: () => undefined, removeCallback: () => undefined });
  return {
    createCounter: instrument("counter"),
    createUpDownCounter: instrument("upDownCounter"),
    createHistogram: instrument("histogram"),
    createGauge: instrument("gauge"),
    createObservableCounter: observable,
    createObservableUpDownCounter: observable,
    createObservableGauge: observable,
    addBatchObservableCallback: () => undefined,
    removeBatchObservableCallback: () => undefined,
  } as Meter;
}

function epochMs(time: TimeInput | undefined): number {
  if (time === undefined) return Date.now();
  if (time instanceof Date) return time.getTime();
  if (Array.isArray(time)) return time[0] * 1000 + time[1] / 1e6;
  // A number below the process's start is performance.now()-style; else epoch ms.
  return time < performance.timeOrigin ? performance.timeOrigin + time : time;
}

const hexId = (bytes: number) => crypto.randomBytes(bytes).toString("hex");

class SandboxSpan implements Span {
  private readonly record: OtelSpanRecord;
  private readonly context: { traceId: string; spanId: string; traceFlags: number };
  private isEnded = false;

  constructor(
    private readonly buffer: Buffer,
    scope: string,
    name: string,
    options: SpanOptions,
    parent: SandboxSpan | undefined,
  ) {
    const spanId = hexId(8);
    this.context = { traceId: parent?.context.traceId ?? hexId(16), spanId, traceFlags: 1 };
    this.record = {
      scope,
      id: spanId,
      ...(parent ? { parentId: parent.context.spanId } : {}),
      name: String(name),
      kind: options.kind ?? 0,
      startMs: epochMs(options.startTime),
      endMs: 0,
      attributes: cleanAttributes(options.attributes),
      events: [],
    };
    buffer.open.add(this);
  }
  spanContext() {
    return this.context;
  }
  setAttribute(key: string, value: unknown): this {
    const kept = attributeValue(value);
    if (!this.isEnded && kept !== undefined && Object.keys(this.record.attributes).length < otelBounds.attributes)
      this.record.attributes[key] = kept;
    return this;
  }
  setAttributes(attributes: object): this {
    for (const [key, value] of Object.entries(attributes)) this.setAttribute(key, value);
    return this;
  }
  addEvent(name: string, attributesOrTime?: unknown, time?: TimeInput): this {
    if (this.isEnded || this.record.events.length >= otelBounds.events) return this;
    const isTime =
      typeof attributesOrTime === "number" || attributesOrTime instanceof Date || Array.isArray(attributesOrTime);
    this.record.events.push({
      name: String(name),
      timeMs: epochMs(isTime ? (attributesOrTime as TimeInput) : time),
      attributes: isTime ? {} : cleanAttributes(attributesOrTime),
    });
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: SpanStatus): this {
    if (!this.isEnded)
      this.record.status = { code: status.code, ...(status.message ? { message: String(status.message) } : {}) };
    return this;
  }
  updateName(name: string): this {
    if (!this.isEnded) this.record.name = String(name);
    return this;
  }
  end(endTime?: TimeInput): void {
    if (this.isEnded) return;
    this.isEnded = true;
    this.buffer.open.delete(this);
    this.record.endMs = Math.max(epochMs(endTime), this.record.startMs);
    if (this.buffer.spans.length >= otelBounds.spans) this.buffer.dropped++;
    else this.buffer.spans.push(this.record);
  }
  isRecording(): boolean {
    return !this.isEnded;
  }
  recordException(exception: unknown, time?: TimeInput): void {
    const error: Partial<Error> = typeof exception === "string" ? { message: exception } : (exception as Error);
    this.addEvent(
      "exception",
      {
        ...(error?.name ? { "exception.type": String(error.name) } : {}),
        ...(error?.message ? { "exception.message": String(error.message) } : {}),
        ...(error?.stack ? { "exception.stacktrace": String(error.stack) } : {}),
      },
      time,
    );
  }
}

function sandboxTracer(scope: string): Tracer {
  const startSpan = (name: string, options: SpanOptions = {}, parentContext = context.active()): Span => {
    const buffer = bufferOf(activeRequest(parentContext));
    const parent = options.root ? undefined : trace.getSpan(parentContext);
    if (!buffer || buffer.spans.length + buffer.open.size >= otelBounds.spans) {
      if (buffer) buffer.dropped++;
      return trace.wrapSpanContext(
        parent?.spanContext() ?? { traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0 },
      );
    }
    return new SandboxSpan(buffer, scope, name, options, parent instanceof SandboxSpan ? parent : undefined);
  };
  return {
    startSpan,
    startActiveSpan(name: string, ...rest: unknown[]) {
      const fn = rest.pop() as (span: Span) => unknown;
      const [options, parentContext] = rest as [SpanOptions | undefined, Context | undefined];
      const scopeContext = parentContext ?? context.active();
      const span = startSpan(name, options, scopeContext);
      return context.with(trace.setSpan(scopeContext, span), fn, undefined, span);
    },
  } as Tracer;
}

/** ctx.host.otel for code running on behalf of platform request `requestId`. */
export function otelServices(requestId: number) {
  const check = (name: unknown) => {
    if (typeof name !== "string" || !instrumentName.test(name))
      throw new Error(`ctx.host.otel: ${JSON.stringify(name)} is not a metric name (letters, digits, _ . / -)`);
    return name;
  };
  const series = (kind: OtelInstrumentKind, name: unknown) => ({ scope: "ctx.host.otel", kind, name: check(name) });
  return Object.freeze({
    increment(name: string, valueOrTags?: number | Record<string, string>, tags?: Record<string, string>) {
      const value = typeof valueOrTags === "number" ? valueOrTags : 1;
      record(requestId, series("counter", name), value, typeof valueOrTags === "object" ? valueOrTags : tags);
    },
    histogram(name: string, value: number, tags?: Record<string, string>) {
      record(requestId, series("histogram", name), value, tags);
    },
    tag(name: string, value: string) {
      if (typeof name !== "string" || name.length === 0) throw new Error("ctx.host.otel.tag: give a tag name");
      const buffer = bufferOf(requestId);
      if (buffer && (name in buffer.tags || Object.keys(buffer.tags).length < otelBounds.attributes))
        buffer.tags[name] = String(value);
    },
  });
}
