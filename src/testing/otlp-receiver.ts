// A local OTLP/HTTP receiver for tests: it accepts every export (traces and metrics, JSON or
// protobuf), keeps each request, and decodes the JSON ones (OTEL_EXPORTER_OTLP_PROTOCOL=http/json)
// into plain spans and data points.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedRequest = { path: string; contentType: string; body: Buffer };

export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
  scope: string;
  resource: Record<string, unknown>;
};

export type ReceivedPoint = {
  name: string;
  unit?: string;
  type: "sum" | "gauge" | "histogram";
  attributes: Record<string, unknown>;
  /** A sum's or gauge's value; a histogram's sum. */
  value: number;
  /** A histogram's count. */
  count?: number;
  scope: string;
  resource: Record<string, unknown>;
};

export type OtlpReceiver = {
  url: string;
  requests: ReceivedRequest[];
  spans: () => ReceivedSpan[];
  points: () => ReceivedPoint[];
  close: () => Promise<void>;
};

export async function startOtlpReceiver(options: { port?: number; host?: string } = {}): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const contentType = request.headers["content-type"] ?? "";
      requests.push({ path: request.url ?? "", contentType, body: Buffer.concat(chunks) });
      // An empty answer is a full success in both encodings.
      const isJson = contentType.includes("json");
      response.writeHead(200, { "content-type": isJson ? "application/json" : "application/x-protobuf" });
      response.end(isJson ? "{}" : undefined);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  const json = (path: string) =>
    requests
      .filter((request) => request.path === path && request.contentType.includes("json"))
      .map((request) => JSON.parse(request.body.toString("utf8")) as Record<string, unknown[]>);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () => json("/v1/traces").flatMap(decodeSpans),
    points: () => json("/v1/metrics").flatMap(decodePoints),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type KeyValue = { key: string; value: AnyValue };
type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};

function anyValue(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(anyValue);
  return undefined;
}

const attributes = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((item) => [item.key, anyValue(item.value)]));

const nanosToMs = (nanos: string | number | undefined) => Number(BigInt(nanos ?? 0) / 1_000_000n);

type JsonSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
};
type DataPoint = {
  attributes?: KeyValue[];
  asInt?: number | string;
  asDouble?: number;
  count?: number | string;
  sum?: number;
};
type JsonMetric = {
  name: string;
  unit?: string;
  sum?: { dataPoints: DataPoint[] };
  gauge?: { dataPoints: DataPoint[] };
  histogram?: { dataPoints: DataPoint[] };
};
type ScopeBlock = { scope?: { name?: string }; spans?: JsonSpan[]; metrics?: JsonMetric[] };
type ResourceBlock = { resource?: { attributes?: KeyValue[] }; scopeSpans?: ScopeBlock[]; scopeMetrics?: ScopeBlock[] };

function decodeSpans(body: Record<string, unknown[]>): ReceivedSpan[] {
  return (body.resourceSpans as ResourceBlock[]).flatMap((block) =>
    (block.scopeSpans ?? []).flatMap((scoped) =>
      (scoped.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
        name: span.name,
        kind: span.kind,
        startMs: nanosToMs(span.startTimeUnixNano),
        endMs: nanosToMs(span.endTimeUnixNano),
        attributes: attributes(span.attributes),
        ...(span.status ? { status: span.status } : {}),
        scope: scoped.scope?.name ?? "",
        resource: attributes(block.resource?.attributes),
      })),
    ),
  );
}

function decodePoints(body: Record<string, unknown[]>): ReceivedPoint[] {
  return (body.resourceMetrics as ResourceBlock[]).flatMap((block) =>
    (block.scopeMetrics ?? []).flatMap((scoped) =>
      (scoped.metrics ?? []).flatMap((metric) => {
        const type = metric.histogram ? "histogram" : metric.gauge ? "gauge" : "sum";
        const points = (metric.histogram ?? metric.gauge ?? metric.sum)?.dataPoints ?? [];
        return points.map((point) => ({
          name: metric.name,
          ...(metric.unit ? { unit: metric.unit } : {}),
          type,
          attributes: attributes(point.attributes),
          value: type === "histogram" ? Number(point.sum ?? 0) : Number(point.asInt ?? point.asDouble ?? 0),
          ...(type === "histogram" ? { count: Number(point.count ?? 0) } : {}),
          scope: scoped.scope?.name ?? "",
          resource: attributes(block.resource?.attributes),
        }));
      }),
    ),
  );
}
