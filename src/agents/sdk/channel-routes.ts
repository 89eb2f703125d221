// Route builders for custom channels (docs/agent-folders.md, "The `define*` helpers"):
// `POST("/review", { bodySchema, handler })`. Builders only record the route; defineChannel
// validates the whole list so every problem is reported against the channel file at once.
import type { z } from "zod";
import type { HostServices } from "./host";
import type { ArtifactsApi, JsonObject, Principal, SendOptions, SessionHandle, SessionRef } from "./types";

export const routeMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof routeMethods)[number];

type Parsed<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

export type RouteContext<Body = unknown, Query = unknown> = {
  /** Start or continue a session; the continuation token picks the conversation. */
  send(message: string, options?: SendOptions<JsonObject>): Promise<SessionHandle>;
  /** Keep work alive after the response is returned. */
  waitUntil(promise: Promise<unknown>): void;
  body: Body;
  query: Query;
  /** [inferred] Values of `:name` path segments. */
  params: Record<string, string>;
  /** [inferred] The principal the auth chain admitted. */
  auth: Principal;
  getSession(id: string): Promise<SessionRef | null>;
  host: HostServices;
  artifacts: ArtifactsApi;
};

export type RouteHandler<Body, Query> = (
  request: Request,
  ctx: RouteContext<Body, Query>,
) => Response | Promise<Response>;

export type RouteConfig<B, Q> = {
  /** Shown in the playground's slash commands. */
  description?: string;
  bodySchema?: B;
  querySchema?: Q;
  handler: RouteHandler<Parsed<B>, Parsed<Q>>;
};

export type ChannelRoute = {
  readonly method: RouteMethod;
  readonly path: string;
  readonly description?: string;
  readonly bodySchema?: z.core.$ZodType;
  readonly querySchema?: z.core.$ZodType;
  readonly handler: RouteHandler<never, never>;
};

function route(method: RouteMethod, path: string, config: RouteConfig<unknown, unknown>): ChannelRoute {
  return Object.freeze({ ...config, method, path }) as ChannelRoute;
}

type NoBody = { bodySchema?: never };

export function GET<Q extends z.core.$ZodType | undefined = undefined>(
  path: string,
  config: RouteConfig<undefined, Q> & NoBody,
): ChannelRoute {
  return route("GET", path, config as RouteConfig<unknown, unknown>);
}

export function DELETE<Q extends z.core.$ZodType | undefined = undefined>(
  path: string,
  config: RouteConfig<undefined, Q> & NoBody,
): ChannelRoute {
  return route("DELETE", path, config as RouteConfig<unknown, unknown>);
}

type Schema = z.core.$ZodType | undefined;
type WithBody = <B extends Schema = undefined, Q extends Schema = undefined>(
  path: string,
  config: RouteConfig<B, Q>,
) => ChannelRoute;
type AnyRouteConfig = RouteConfig<unknown, unknown>;

export const POST: WithBody = (path, config) => route("POST", path, config as AnyRouteConfig);
export const PUT: WithBody = (path, config) => route("PUT", path, config as AnyRouteConfig);
export const PATCH: WithBody = (path, config) => route("PATCH", path, config as AnyRouteConfig);
