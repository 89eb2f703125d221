// One call to a channel route from the browser, and the same call as a curl command line. The
// browser call rides on the same-origin cookie (a dashboard sign-in) and the token field, as the
// rest of the playground does; the curl line names the token only as $AGENTFOLD_TOKEN, so a copied
// command never carries a credential.
import type { ChannelRoute } from "./channel-routes";

export type ChannelRequest = {
  route: ChannelRoute;
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  /** Sent as JSON; absent for a route that takes no body. */
  body?: unknown;
};

export type ChannelAnswer = {
  status: number;
  statusText: string;
  /** The headers worth a look (content type, location, allow, retry-after, auth challenges, x-*). */
  headers: [string, string][];
  text: string;
  /** The body parsed, when it is JSON. */
  json?: unknown;
  ms: number;
};

export const takesBody = (method: string) => method !== "GET" && method !== "DELETE";

/** The route's path under the agent: /<slug>/v1/channels/<id>/<path>, params filled in, query added. */
export function channelPath(slug: string, request: Omit<ChannelRequest, "body">): string {
  const { route, params = {}, query } = request;
  const path = route.path.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== "")
      search.set(name, typeof value === "string" ? value : JSON.stringify(value));
  const qs = search.toString();
  return `/${encodeURIComponent(slug)}/v1/channels/${encodeURIComponent(route.channel)}${path}${qs ? `?${qs}` : ""}`;
}

const shownHeaders = new Set(["content-type", "location", "allow", "retry-after", "www-authenticate", "cache-control"]);

export async function callChannelRoute(
  slug: string,
  token: string,
  request: ChannelRequest,
  signal?: AbortSignal,
): Promise<ChannelAnswer> {
  const hasBody = takesBody(request.route.method) && request.body !== undefined;
  const headers: Record<string, string> = { accept: "application/json" };
  if (hasBody) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const started = performance.now();
  const response = await fetch(channelPath(slug, request), {
    method: request.route.method,
    credentials: "same-origin",
    headers,
    body: hasBody ? JSON.stringify(request.body) : undefined,
    cache: "no-store",
    signal,
  });
  const text = await response.text();
  let json: unknown;
  if (response.headers.get("content-type")?.includes("json")) {
    try {
      json = JSON.parse(text);
    } catch {
      // Labelled JSON but is not: the text is shown as it came.
    }
  }
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers].filter(([name]) => shownHeaders.has(name) || name.startsWith("x-")),
    text,
    json,
    ms: Math.round(performance.now() - started),
  };
}

/** POSIX shell single quotes: nothing inside is expanded. */
const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** The call as a curl command line; the token stays a shell variable for the reader to set. */
export function curlCommand(origin: string, slug: string, request: ChannelRequest): string {
  const parts = [`curl -sS -X ${request.route.method}`, quote(origin + channelPath(slug, request))];
  // Double quotes so the shell expands the variable: the command carries no credential.
  parts.push(`-H "Authorization: Bearer $AGENTFOLD_TOKEN"`);
  if (takesBody(request.route.method) && request.body !== undefined)
    parts.push(`-H 'content-type: application/json'`, `--data-raw ${quote(JSON.stringify(request.body))}`);
  return parts.join(" \\\n  ");
}
