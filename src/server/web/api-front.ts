// The hot /v1 calls of API clients — starting a session, sending to one, streaming it — served
// straight from node:http instead of through Next's router. They run the very route handlers
// Next serves (the `isHot` entries of src/server/http/v1-routes.ts); Next's routing,
// request wrapping and async context cost the web process about as much CPU as the handlers
// themselves. Only calls with an Authorization header are taken: sign-in cookies, loopback and
// anonymous callers, and every other path go through Next as before.
import fs from "node:fs";
import type http from "node:http";
import { AppError } from "@/server/errors";
import { json } from "@/server/http/respond";
import { toAppError } from "@/server/http/to-app-error";
import { v1Routes } from "@/server/http/v1-routes";
import { logWarning } from "@/server/logging/logger";

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A route by method and path segments (`:name` is a parameter), and its handler, loaded on first use. */
export type FastRoute = { method: string; segments: string[]; load: () => Promise<RouteHandler> };

/** The route table's hot entries, at their per-agent paths (unslugged /v1/… goes through Next). */
export const fastRoutes: FastRoute[] = v1Routes
  .filter((route) => route.isHot)
  .map((route) => ({
    method: route.method,
    segments: route.path.split("/").slice(1),
    load: async () => route.handler as RouteHandler,
  }));

export type ApiFront = {
  /** Serves the request if it is one of the fast routes; false leaves it to Next. */
  serve: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
};

/**
 * `appDir` is the app router's directory: its static top-level segments (`v1`, `api`, …) are
 * routes of their own, never an agent's slug, exactly as Next matches them.
 */
export function createApiFront(options: {
  appDir: string;
  routes?: FastRoute[];
  log?: (message: string) => void;
}): ApiFront {
  const { routes = fastRoutes, log = logWarning } = options;
  const staticSegments = new Set(
    fs
      .readdirSync(options.appDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith("["))
      .map((entry) => entry.name),
  );
  const loaded = new Map<FastRoute, Promise<RouteHandler>>();
  const handlerOf = (route: FastRoute) => {
    let handler = loaded.get(route);
    if (!handler) loaded.set(route, (handler = route.load()));
    return handler;
  };

  return {
    serve(req, res) {
      if (!req.headers.authorization || !req.url) return false;
      const match = matchRoute(routes, req.method ?? "GET", req.url, staticSegments);
      if (!match) return false;
      // The client may leave at any moment, even before the handler answers: its request's
      // signal aborts and whatever answer comes is cancelled, never written. An answer written to
      // its end aborts nothing (an abort costs a DOMException, stack and all, per request).
      const gone = new AbortController();
      res.once("close", () => res.writableFinished || gone.abort());
      void (async () => {
        let request: ReturnType<typeof toRequest>;
        try {
          request = toRequest(req, gone.signal);
        } catch {
          return writeResponse(
            json(
              new AppError("invalid_input", "the request's Host or X-Forwarded-Proto header is not valid").toBody(),
              400,
            ),
            res,
            gone.signal,
          );
        }
        try {
          const handler = await handlerOf(match.route);
          const response = await handler(request.request, { params: Promise.resolve(match.params) });
          // A body the handler did not read to its end (over the size limit) is drained, not
          // read, and the connection closes after the answer instead of being reused.
          if (!req.complete) {
            request.abandon();
            res.setHeader("connection", "close");
          }
          await writeResponse(response, res, gone.signal);
        } catch (error) {
          log(`api front: ${req.method} ${req.url} failed: ${(error as Error).stack ?? String(error)}`);
          if (res.headersSent) return void res.destroy();
          // Handlers map their own errors; this is one that escaped (a module that would not load).
          await writeResponse(json(toAppError(error).toBody(), 500), res, gone.signal);
        }
      })();
      return true;
    },
  };
}

/** The fast route a request is for, with its path parameters (decoded, as Next gives them). */
export function matchRoute(
  routes: FastRoute[],
  method: string,
  url: string,
  staticSegments: Set<string>,
): { route: FastRoute; params: Record<string, string> } | undefined {
  const pathname = url.split("?", 1)[0]!;
  const parts = pathname.split("/").slice(1);
  if (staticSegments.has(parts[0] ?? "")) return undefined;
  for (const route of routes) {
    if (route.method !== method || route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let isMatch = true;
    for (const [i, segment] of route.segments.entries()) {
      const part = parts[i]!;
      if (segment.startsWith(":")) {
        if (!part) isMatch = false;
        else {
          try {
            params[segment.slice(1)] = decodeURIComponent(part);
          } catch {
            isMatch = false;
          }
        }
      } else if (segment !== part) isMatch = false;
      if (!isMatch) break;
    }
    if (isMatch) return { route, params };
  }
  return undefined;
}

/** The web Request a route handler takes; its origin as Next builds it (Host, x-forwarded-proto).
 * Throws when the Host header does not make a URL. */
function toRequest(req: http.IncomingMessage, signal: AbortSignal): { request: Request; abandon: () => void } {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const forwarded = req.headers["x-forwarded-proto"];
  const claimed = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase();
  const protocol = claimed === "https" ? "https" : "http";
  const url = new URL(`${protocol}://${req.headers.host ?? "localhost"}${req.url}`);
  let isAbandoned = false;
  const abandon = () => {
    isAbandoned = true;
    req.resume();
  };
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  // Not Readable.toWeb: cancelling that destroys the socket under the answer still to be written.
  const body = hasBody
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          req.on("data", (chunk: Buffer) => {
            if (isAbandoned) return;
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            if ((controller.desiredSize ?? 0) <= 0) req.pause();
          });
          req.once("end", () => isAbandoned || controller.close());
          req.once("error", (error) => isAbandoned || controller.error(error));
        },
        pull: () => void req.resume(),
        cancel: () => abandon(),
      })
    : undefined;
  const request = new Request(url, { method: req.method, headers, body, signal, duplex: "half" } as RequestInit);
  return { request, abandon };
}

/** Writes a Response out: a JSON answer in one piece, a stream chunk by chunk as it comes. A
 * client gone (`gone` aborted), before or during, cancels the body. */
async function writeResponse(response: Response, res: http.ServerResponse, gone: AbortSignal): Promise<void> {
  if (gone.aborted) return void (await response.body?.cancel().catch(() => undefined));
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  if (!response.body) return void res.writeHead(response.status, headers).end();
  if (!response.headers.get("content-type")?.includes("ndjson")) {
    const body = Buffer.from(await response.arrayBuffer());
    return void res.writeHead(response.status, { ...headers, "content-length": String(body.length) }).end(body);
  }
  res.writeHead(response.status, headers);
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  gone.addEventListener("abort", cancel, { once: true });
  const closed = new Promise<void>((resolve) => gone.addEventListener("abort", () => resolve(), { once: true }));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await Promise.race([new Promise((resolve) => res.once("drain", resolve)), closed]);
      if (gone.aborted) return;
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    gone.removeEventListener("abort", cancel);
  }
}
