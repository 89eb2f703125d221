// One entry of the /v1 route table (./v1-routes.ts): what the Next route files, the fast API front,
// the fuzz test and the OpenAPI document all read. `agentRoute` and `hostRoute` check the input
// through defineAgentRoute / defineRoute, so the table holds the very handler that serves it.
import { z } from "zod";
import type { Caller } from "@/server/auth/principal";
import type { TokenAction } from "@/server/tokens/scopes";
import { type AgentRow, authenticate, defineAgentRoute } from "./agent-route";
import { defineRoute } from "./route";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A route handler as Next calls it: `src/app/**\/route.ts` exports these. */
export type NextHandler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[] | undefined>> },
) => Promise<Response>;

/** What a 200 carries: one JSON value, or NDJSON lines each matching `line`. */
/** A JSON answer, an NDJSON stream, or a page for a browser (`html`: what it shows), for every status. */
export type ResponseBody = { json: z.ZodType } | { ndjson: z.ZodType } | { html: string };

export type V1Route<M extends Method = Method, P extends string = string> = {
  method: M;
  /** `/:slug/v1/…` per agent (also `/v1/…` in single-agent mode), else `/v1/…` host-level. */
  path: P;
  /** An operationId for generated clients, camelCase. */
  name: string;
  summary: string;
  /** `public`, any authenticated `caller`, or the token actions of which one is needed. */
  access: "public" | "caller" | TokenAction[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** A JSON body, or a raw one (an upload) in one of these media types. */
  body?: z.ZodType | { raw: string[] };
  response: ResponseBody;
  /** Statuses other than 200 that carry `response` too (health's 503). */
  alsoAnswers?: number[];
  /** Called on every turn by API clients: served by the fast API front (src/server/web/api-front.ts). */
  isHot?: boolean;
  handler: NextHandler;
};

type Shape = Record<string, z.ZodType>;
type Input<S extends Shape | undefined> = S extends Shape ? z.output<z.ZodObject<S>> : unknown;

type Common<M extends Method, P extends string, Params extends Shape | undefined, Query, Body> = {
  method: M;
  path: P;
  name: string;
  summary: string;
  /** The path parameters besides `slug`. */
  params?: Params;
  query?: z.ZodObject & z.ZodType<Query>;
  body?: z.ZodType<Body>;
  response: ResponseBody;
  alsoAnswers?: number[];
  isHot?: boolean;
};

export function agentRoute<
  const M extends Method,
  const P extends `/:slug/v1/${string}`,
  Params extends Shape | undefined = undefined,
  Query = unknown,
  Body = unknown,
>(
  definition: Common<M, P, Params, Query, Body> & {
    action: TokenAction | TokenAction[];
    handler: (input: {
      request: Request;
      caller: Caller;
      agent: AgentRow;
      params: Input<Params> & { slug: string };
      query: Query;
      body: Body;
    }) => Promise<Response | object>;
  },
): V1Route<M, P> {
  const { action, handler, params: shape, ...rest } = definition;
  const params = z.object({ slug: z.string(), ...shape });
  return {
    ...rest,
    access: [action].flat(),
    params,
    handler: defineAgentRoute({
      action,
      params: params as unknown as z.ZodType<Input<Params> & { slug: string }>,
      query: definition.query,
      body: definition.body,
      handler,
    }) as NextHandler,
  };
}

export function hostRoute<
  const M extends Method,
  const P extends `/v1/${string}`,
  Params extends Shape | undefined = undefined,
  Query = unknown,
  Body = unknown,
>(
  definition: Common<M, P, Params, Query, Body> & {
    access: "public" | "caller";
    rawBody?: string[];
    handler: (input: {
      request: Request;
      caller: Caller | undefined;
      params: Input<Params>;
      query: Query;
      body: Body;
    }) => Promise<Response | object>;
  },
): V1Route<M, P> {
  const { handler, params: shape, rawBody, ...rest } = definition;
  const params = shape ? z.object(shape) : undefined;
  return {
    ...rest,
    params,
    body: rawBody ? { raw: rawBody } : definition.body,
    handler: defineRoute<Caller, Input<Params>, Query, Body>({
      auth: definition.access === "public" ? "public" : authenticate,
      params: params as unknown as z.ZodType<Input<Params>> | undefined,
      query: definition.query,
      body: definition.body,
      handler: ({ principal, ...input }) => handler({ ...input, caller: principal }),
    }) as NextHandler,
  };
}
