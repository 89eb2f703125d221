// Single-agent local mode mounts the per-agent routes at /v1/* as well
// (docs/api.md, "Single-agent local mode"): the same handlers, with the configured agent's slug
// filled in. Without AGENTFOLD_SINGLE_AGENT these paths answer 404, as every unknown /v1 path does.
import { env } from "@/env";
import { AppError } from "@/server/errors";
import { errorResponse } from "./respond";

// Next passes no params at all to a route without dynamic segments (/v1/session).
type Context<P> = { params?: Promise<P> };
type Handler<P> = (request: Request, context: { params: Promise<P & { slug: string }> }) => Promise<Response>;

export function unslugged<P extends object>(handler: Handler<P>) {
  return async (request: Request, context?: Context<P>): Promise<Response> => {
    const slug = env().AGENTFOLD_SINGLE_AGENT;
    if (!slug) return errorResponse(new AppError("not_found", `no route ${new URL(request.url).pathname}`));
    const params = (await context?.params) ?? ({} as P);
    return handler(request, { params: Promise.resolve({ ...params, slug }) });
  };
}
