// A channel route's request inside the sandbox (docs/agent-folders.md, "Channels"): the channel's
// auth chain (when the platform admitted no credential of its own), the route's body and query
// schemas, then the handler, whose Response is handed back as its status and headers, then its
// body as it comes (the runner sends it on in pieces). This file runs ONLY in the sandbox.
import crypto from "node:crypto";
import type { AuthPolicy } from "@/agents/sdk/channel-auth";
import type { ChannelRoute } from "@/agents/sdk/channel-routes";
import type { RouteAnswer, RouteRequest } from "./protocol";

type ChannelModule = { pack?: string; auth?: AuthPolicy[]; routes?: ChannelRoute[] };

/** An answer: this file's own (a refusal, with its body) or the handler's (its body to stream). */
export type RouteReply =
  | RouteAnswer
  | { status: number; headers: [string, string][]; stream: ReadableStream<Uint8Array> | null };

export function findRoute(channel: ChannelModule, method: string, pattern: string): ChannelRoute | undefined {
  return channel.routes?.find((route) => route.method === method && route.path === pattern);
}

/** Who the chain admits, in order; undefined when nobody. */
export function admit(chain: AuthPolicy[], request: RouteRequest, channelId: string) {
  for (const policy of chain) {
    if (policy.policy === "localDevStrict" && request.isDirectLoopback)
      return { kind: "local" as const, id: "loopback" };
    if (policy.policy === "allowAll") return { kind: "anonymous" as const, id: "anonymous" };
    const token = policy.policy === "bearer" ? resolveToken(policy.token) : undefined;
    if (token && sameToken(request.headers.authorization, token))
      return { kind: "app" as const, id: `channel:${channelId}` };
  }
  return undefined;
}

/** `bearerAuth("${NAME}")` reads the agent's secret NAME at each request, so a rotation applies at once. */
function resolveToken(token: string | undefined): string | undefined {
  const name = /^\$\{([A-Z_][A-Z0-9_]*)\}$/.exec(token ?? "")?.[1];
  return name ? process.env[name] || undefined : token;
}

function sameToken(header: string | undefined, token: string): boolean {
  const sent = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim() ?? "";
  const a = crypto.createHash("sha256").update(sent).digest();
  const b = crypto.createHash("sha256").update(token).digest();
  return sent.length > 0 && crypto.timingSafeEqual(a, b);
}

function json(status: number, value: unknown): RouteAnswer {
  return {
    status,
    headers: [["content-type", "application/json; charset=utf-8"]],
    body: Buffer.from(JSON.stringify(value)).toString("base64"),
  };
}

type Issue = { path: PropertyKey[]; message: string };
type Schema = {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: Issue[] } };
};

function check(schema: unknown, value: unknown, where: "body" | "query") {
  if (!schema) return { ok: true as const, value };
  const parsed = (schema as Schema).safeParse(value);
  if (parsed.success) return { ok: true as const, value: parsed.data };
  const issues = parsed.error.issues.map((issue) => ({
    path: [where, ...issue.path.map(String)],
    message: issue.message,
  }));
  return { ok: false as const, answer: json(400, { ok: false, error: "invalid_request", issues }) };
}

/** Checks and runs the route; `ctx` is the rest of the handler's context (send, host …). */
export async function answerRoute(
  channel: ChannelModule,
  request: RouteRequest,
  ctx: Record<string, unknown>,
): Promise<RouteReply> {
  const route = findRoute(channel, request.method, request.pattern);
  if (!route) return json(404, { ok: false, error: "not_found", message: "no such route" });
  const auth = request.principal ?? admit(channel.auth ?? [], request, request.channelId);
  if (!auth)
    return json(401, { ok: false, error: "unauthorized", message: "this route's auth chain admits nobody here" });
  const bytes = Buffer.from(request.body ?? "", "base64");
  let body: unknown;
  if (route.bodySchema) {
    try {
      body = bytes.length === 0 ? undefined : JSON.parse(bytes.toString("utf8"));
    } catch {
      return json(400, { ok: false, error: "invalid_json", message: "the body is not JSON" });
    }
  }
  const checkedBody = check(route.bodySchema, body, "body");
  if (!checkedBody.ok) return checkedBody.answer;
  const checkedQuery = check(route.querySchema, request.query, "query");
  if (!checkedQuery.ok) return checkedQuery.answer;
  const hasBody = request.method !== "GET" && request.method !== "DELETE" && bytes.length > 0;
  const incoming = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    ...(hasBody ? { body: bytes } : {}),
  });
  const handler = route.handler as (request: Request, ctx: unknown) => Response | Promise<Response>;
  const response = await handler(
    incoming,
    Object.freeze({ ...ctx, body: checkedBody.value, query: checkedQuery.value, params: request.params, auth }),
  );
  if (!(response instanceof Response)) throw new Error("the route handler must return a Response");
  return { status: response.status, headers: [...response.headers], stream: response.body };
}
