// Declares a /v1 route: zod for params, query and body; authentication unless marked public;
// every error mapped to the wire format here, in one place.
import { z } from "zod";
import { AppError } from "@/server/errors";
import { readJsonBody } from "./read-json";
import { errorResponse, json } from "./respond";

export type Authenticate<P> = (request: Request) => Promise<P>;

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

type Definition<P, Params, Query, Body> = {
  /** "public" or a function that returns the caller or throws unauthorized / forbidden. */
  auth: "public" | Authenticate<P>;
  params?: z.ZodType<Params>;
  query?: z.ZodType<Query>;
  body?: z.ZodType<Body>;
  handler: (input: {
    request: Request;
    principal: P | undefined;
    params: Params;
    query: Query;
    body: Body;
  }) => Promise<Response | object>;
};

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return value as T;
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new AppError("invalid_input", `Invalid ${where}: ${z.prettifyError(result.error)}`, {
      issues: result.error.issues.map(({ path, message }) => ({ path, message })),
    });
  }
  return result.data;
}

export function defineRoute<P = never, Params = unknown, Query = unknown, Body = unknown>(
  definition: Definition<P, Params, Query, Body>,
) {
  return async (request: Request, context: RouteContext): Promise<Response> => {
    try {
      const principal = definition.auth === "public" ? undefined : await definition.auth(request);
      const params = parse(definition.params, await context.params, "path parameters");
      const query = parse(definition.query, Object.fromEntries(new URL(request.url).searchParams), "query");
      const body = definition.body ? parse(definition.body, await readJsonBody(request), "body") : (undefined as Body);
      const result = await definition.handler({ request, principal, params, query, body });
      return result instanceof Response ? result : json(result);
    } catch (error) {
      return errorResponse(error, request);
    }
  };
}
