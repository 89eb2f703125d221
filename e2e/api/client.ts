// A small /v1 client for the contract tests: JSON calls and NDJSON streams read line by line,
// every event line parsed with the platform's event schema.
import { sessionEventSchema, type SessionEvent } from "../../src/agents/sdk/events";
import { streamControlLineSchema } from "../../src/agents/sdk/stream-lines";
import { parseNdjson } from "../../src/server/http/ndjson";

export const baseUrl = () => process.env.AGENTFOLD_E2E_URL!;
export const tokens = () => ({
  owner: process.env.AGENTFOLD_E2E_TOKEN!,
  other: process.env.AGENTFOLD_E2E_OTHER_TOKEN!,
  scoped: process.env.AGENTFOLD_E2E_SCOPED_TOKEN!,
  expired: process.env.AGENTFOLD_E2E_EXPIRED_TOKEN!,
  revoked: process.env.AGENTFOLD_E2E_REVOKED_TOKEN!,
});

type ApiOptions = { token?: string; body?: unknown; rawBody?: string; base?: string; headers?: Record<string, string> };

export async function api(method: string, path: string, options: ApiOptions = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(`${options.base ?? baseUrl()}${path}`, { method, headers, body });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json:
      text &&
      response.headers.get("content-type")?.includes("json") &&
      !response.headers.get("content-type")?.includes("ndjson")
        ? JSON.parse(text)
        : undefined,
  };
}

/** Reads a stream until `until` says stop (or the server ends it); aborts the connection after. */
export async function readStream(
  path: string,
  token: string,
  until: (event: SessionEvent, all: SessionEvent[]) => boolean,
  timeoutMs = 20_000,
) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const response = await fetch(`${baseUrl()}${path}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  const events: SessionEvent[] = [];
  const others: unknown[] = [];
  try {
    for await (const line of parseNdjson(response.body!)) {
      if ((line as { type: string }).type === "heartbeat") {
        others.push(streamControlLineSchema.parse(line));
        continue;
      }
      const event = sessionEventSchema.parse(line);
      events.push(event);
      if (until(event, events)) break;
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { response, events, others };
}

export function parseDump(text: string): SessionEvent[] {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => sessionEventSchema.parse(JSON.parse(line)));
}
