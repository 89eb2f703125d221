// Spans of a turn that start on first use (docs/telemetry.md, "Runs and replays"). A run of a turn
// after a crash or a suspension replays its recorded steps from the journal without running them:
// a scope's span starts only when work under it runs, so a replay makes no spans for what it did
// not do, and a run that did nothing makes none at all.
import { type Attributes, type Context, ROOT_CONTEXT, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Telemetry } from "./telemetry";

export type SpanScope = {
  /** Starts the span (and those above it) unless started: the context for a child span. */
  context: () => Context | undefined;
  /** A scope under this one, with the turn's shared attributes. */
  child: (name: string, attributes?: Attributes) => SpanScope;
  /** Attributes for this span; `shared` ones go on every span of the turn started from now on. */
  set: (attributes: Attributes, options?: { name?: string; shared?: boolean }) => void;
  /** Ends the span if it started; `error` marks it failed. */
  end: (error?: string) => void;
};

/** Telemetry off: every scope is this one. */
export const noSpan: SpanScope = {
  context: () => undefined,
  child: () => noSpan,
  set: () => undefined,
  end: () => undefined,
};

type Start = (name: string, attributes: Attributes, startTime: number | undefined) => Span;

/** A turn's root scope: its span starts in the trace derived from `traceKey`, dated `startTime`
 * (the run's start) whenever it starts. */
export function rootScope(
  telemetry: Telemetry | undefined,
  name: string,
  options: { traceKey: string; attributes: Attributes; startTime?: number },
): SpanScope {
  if (!telemetry) return noSpan;
  const start: Start = (spanName, attributes, startTime) =>
    telemetry.startRoot(spanName, { attributes, startTime }, options.traceKey);
  return scope(telemetry, name, {}, { ...options.attributes }, start, ROOT_CONTEXT, options.startTime);
}

function scope(
  telemetry: Telemetry,
  initialName: string,
  own: Attributes,
  shared: Attributes,
  start: Start,
  parentContext: Context | (() => Context | undefined),
  startTime?: number,
): SpanScope {
  let name = initialName;
  const pending: Attributes = { ...own };
  let span: Span | undefined;
  let spanContext: Context | undefined;
  let isEnded = false;
  const self: SpanScope = {
    context() {
      if (span || isEnded) return spanContext;
      const parent = typeof parentContext === "function" ? parentContext() : parentContext;
      if (!parent) return undefined;
      span = start(name, { ...shared, ...pending }, startTime);
      spanContext = trace.setSpan(parent, span);
      return spanContext;
    },
    child(childName, attributes = {}) {
      const startChild: Start = (spanName, childAttributes, childStart) =>
        telemetry.tracer.startSpan(spanName, { attributes: childAttributes, startTime: childStart }, self.context());
      return scope(telemetry, childName, attributes, shared, startChild, () => self.context());
    },
    set(attributes, options = {}) {
      if (options.shared) Object.assign(shared, attributes);
      if (span) {
        span.setAttributes(attributes);
        if (options.name) span.updateName(options.name);
      } else {
        Object.assign(pending, attributes);
        if (options.name) name = options.name;
      }
    },
    end(error) {
      if (isEnded) return;
      isEnded = true;
      if (!span) return;
      if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
      span.end();
    },
  };
  return self;
}
