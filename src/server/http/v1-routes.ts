// The one /v1 route table. The Next route files (src/app/[slug]/v1/**, src/app/v1/**) export its
// handlers through `v1Handlers`, the fast API front serves its `isHot` entries, the fuzz test
// sends to every entry, and GET /v1/openapi.json describes them all. v1-routes.test.ts checks that
// each entry has its route file and each route file its entry.
import { z } from "zod";
import { openApiDocument } from "./openapi";
import { json } from "./respond";
import { agentRoutes } from "./routes/agent-routes";
import { cliRoutes } from "./routes/cli-routes";
import { evalDraftRoutes } from "./routes/eval-drafts";
import { evalRoutes } from "./routes/eval-routes";
import { hostRoutes } from "./routes/host-routes";
import { mcpOAuthRoutes } from "./routes/mcp-oauth-routes";
import { mcpRoutes } from "./routes/mcp-routes";
import { sessionRoutes } from "./routes/session-routes";
import { unslugged } from "./unslugged";
import { hostRoute, type Method, type NextHandler, type V1Route } from "./v1-route";

let document: object | undefined;

const openApiRoute = hostRoute({
  method: "GET",
  path: "/v1/openapi.json",
  name: "getOpenApiDocument",
  summary: "This API's OpenAPI 3.1 document",
  access: "public",
  response: { json: z.looseObject({ openapi: z.literal("3.1.0") }) },
  handler: async (): Promise<Response> => json((document ??= openApiDocument(allRoutes()))),
});

export const v1Routes = [
  ...sessionRoutes,
  ...agentRoutes,
  ...evalDraftRoutes,
  ...evalRoutes,
  ...mcpRoutes,
  ...mcpOAuthRoutes,
  ...hostRoutes,
  ...cliRoutes,
  openApiRoute,
];

function allRoutes(): V1Route[] {
  return v1Routes;
}

type Entry = (typeof v1Routes)[number];
type AgentPath = Extract<Entry["path"], `/:slug/${string}`>;
type Unslugged<P> = P extends `/:slug${infer Rest}` ? Rest : never;
/** A path a route file serves: an entry's own, or a per-agent one unslugged (`/v1/…`). */
export type V1Path = (Entry["path"] | Unslugged<AgentPath>) & string;
type MethodsAt<P extends V1Path> = Extract<Entry, { path: P | `/:slug${P & string}` }>["method"];

/** The entries a path serves: its own, or for `/v1/…`, the per-agent ones in single-agent mode. */
export function routesAt(path: string): { route: V1Route; isUnslugged: boolean }[] {
  const own = v1Routes.filter((route) => route.path === path);
  if (own.length > 0) return own.map((route) => ({ route, isUnslugged: false }));
  return v1Routes.filter((route) => route.path === `/:slug${path}`).map((route) => ({ route, isUnslugged: true }));
}

const unsluggedHandlers = new Map<V1Route, NextHandler>();

/** The handler that serves `route` at its path or, unslugged, at /v1/… (one per entry, kept). */
export function handlerOf(route: V1Route, isUnslugged: boolean): NextHandler {
  if (!isUnslugged) return route.handler;
  let handler = unsluggedHandlers.get(route);
  if (!handler) unsluggedHandlers.set(route, (handler = unslugged(route.handler) as NextHandler));
  return handler;
}

/** What a route file exports: `export const { GET, POST } = v1Handlers("/:slug/v1/session")`. */
export function v1Handlers<P extends V1Path>(path: P): Record<MethodsAt<P>, NextHandler> {
  const found = routesAt(path);
  if (found.length === 0) throw new Error(`no /v1 route table entry serves ${path}`);
  return Object.fromEntries(
    found.map(({ route, isUnslugged }) => [route.method, handlerOf(route, isUnslugged)]),
  ) as Record<Method, NextHandler>;
}
