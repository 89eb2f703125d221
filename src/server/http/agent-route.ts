// Declares a route under /<slug>/v1: authenticates the caller, loads the agent, and checks that
// the caller may take this route's action on it, before the handler runs.
import type { z } from "zod";
import { anonymousCaller } from "@/server/auth/anonymous-caller";
import { authenticateBearer } from "@/server/auth/authenticate-bearer";
import type { Caller } from "@/server/auth/principal";
import type { TokenAction } from "@/server/tokens/scopes";
import { AppError } from "./app-error";
import { db } from "./platform";
import { defineRoute } from "./route";

export type AgentRow = { id: string; slug: string; teamId: string; name: string; description: string | null; activeVersionId: string | null };

export async function authenticate(request: Request): Promise<Caller> {
  const authorization = request.headers.get("authorization");
  if (authorization) return authenticateBearer({ db: db(), authorization });
  throw new AppError("unauthorized", "sign in, or send Authorization: Bearer <token>");
}

/** Credentials as above; without any, the anonymous caller when the agent in the path opted in. */
async function authenticateForAgent(request: Request): Promise<Caller> {
  if (request.headers.get("authorization")) return authenticate(request);
  const slug = decodeURIComponent(new URL(request.url).pathname.split("/")[1] ?? "");
  const agent = await db().agent.findUnique({ where: { slug }, select: { slug: true, allowAnonymous: true } });
  if (agent?.allowAnonymous) return anonymousCaller(agent);
  return authenticate(request);
}

export async function loadAgentFor(caller: Caller, slug: string, action: TokenAction): Promise<AgentRow> {
  const agent = await db().agent.findUnique({
    where: { slug },
    select: { id: true, slug: true, teamId: true, name: true, description: true, activeVersionId: true },
  });
  if (!agent) throw new AppError("not_found", `no agent '${slug}'`);
  if (!caller.can(action, slug, agent.teamId)) throw new AppError("forbidden", `this caller may not ${action} on '${slug}'`);
  return agent;
}

export function defineAgentRoute<Params extends { slug: string }, Query = unknown, Body = unknown>(definition: {
  action: TokenAction;
  params: z.ZodType<Params>;
  query?: z.ZodType<Query>;
  body?: z.ZodType<Body>;
  handler: (input: { request: Request; caller: Caller; agent: AgentRow; params: Params; query: Query; body: Body }) => Promise<Response | object>;
}) {
  return defineRoute<Caller, Params, Query, Body>({
    auth: authenticateForAgent,
    params: definition.params,
    query: definition.query,
    body: definition.body,
    handler: async ({ request, principal, params, query, body }) => {
      const caller = principal!;
      const agent = await loadAgentFor(caller, params.slug, definition.action);
      return definition.handler({ request, caller, agent, params, query, body });
    },
  });
}
