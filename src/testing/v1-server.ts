// Every /v1 route handler behind a real HTTP server, as the web process serves them: requests
// with a bearer token through the API front (src/server/web/api-front.ts), the rest decoded as
// Next does (path parameters URI-decoded). For tests that send what any client could send.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createApiFront, matchRoute, type FastRoute } from "@/server/web/api-front";
import { AppError } from "@/server/errors";
import { errorResponse } from "@/server/http/respond";
import type { V1Route } from "@/server/http/v1-route";
import { handlerOf, v1Routes as table } from "@/server/http/v1-routes";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** A route of the table by method and segments (`:slug/v1/…` per agent, `v1/…` host-level or unslugged). */
export type TestRoute = FastRoute & { entry: V1Route };

const served = (entry: V1Route, path: string, isUnslugged: boolean): TestRoute => ({
  method: entry.method,
  segments: path.split("/").slice(1),
  load: async () => handlerOf(entry, isUnslugged) as Handler,
  entry,
});

// Unslugged, the paths of the hot routes (every method at them): the others run the same handlers
// through the same `unslugged` wrapper, and are fuzzed at their slugged paths.
const hotPaths = new Set(table.filter((entry) => entry.isHot).map((entry) => entry.path));

const isPerAgent = (entry: V1Route) => entry.path.startsWith("/:slug/");

/** Every entry of the route table, and the single-agent mirrors of the hot paths; `v1/…` first, as
 * Next matches its static segment before `[slug]`. */
export const v1Routes: TestRoute[] = [
  ...table
    .filter((entry) => hotPaths.has(entry.path))
    .map((entry) => served(entry, entry.path.slice("/:slug".length), true)),
  ...table.filter((entry) => !isPerAgent(entry)).map((entry) => served(entry, entry.path, false)),
  ...table.filter(isPerAgent).map((entry) => served(entry, entry.path, false)),
];

export type V1Server = { url: string; close: () => Promise<void> };

export async function startV1Server(): Promise<V1Server> {
  // No static top-level folders: `v1/…` is matched by the table, before `:slug/v1/…`.
  const appDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-v1-app-"));
  const front = createApiFront({ appDir, routes: v1Routes });
  const server = http.createServer((req, res) => {
    if (front.serve(req, res)) return;
    serveWithoutFront(req, res).catch((error: unknown) => {
      console.error("v1 test server:", error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(appDir, { recursive: true, force: true });
    },
  };
}

/** A request the front leaves to Next (no bearer token, or no route): the same handlers. */
async function serveWithoutFront(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const match = matchRoute(v1Routes, req.method ?? "GET", req.url ?? "/", new Set());
  let response: Response;
  if (!match) response = errorResponse(new AppError("not_found", "no route"));
  else {
    const headers = new Headers();
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? Buffer.concat(chunks) : undefined,
    });
    response = await (await match.route.load())(request, { params: Promise.resolve(match.params) });
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  // Streams are cut after their first chunk: these tests judge answers by their status.
  const reader = response.body?.getReader();
  const first = await reader?.read();
  if (first?.value) res.write(first.value);
  await reader?.cancel().catch(() => undefined);
  res.end();
}
