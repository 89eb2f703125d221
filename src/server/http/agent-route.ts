// Declares a route under /<slug>/v1: authenticates the caller, loads the agent, and checks that
// the caller may take this route's action on it, before the handler runs.
import type { z } from "zod";
import { anonymousCaller } from "@/server/auth/anonymous-caller";
import { env } from "@/env";
import { findAgentBySlug, type AgentBySlug } from "@/server/agents/find-agent-by-slug";
import { agentSlugPattern } from "@/server/agents/schema";
import { authenticateBearer } from "@/server/auth/authenticate-bearer";
import { assertSameOrigin, dashboardCaller } from "@/server/auth/dashboard-caller";
import { hasSessionCookie, readSessionUserId } from "@/server/auth/dashboard-session";
import { localCaller, proxyEvidence } from "@/server/auth/local-caller";
import type { Caller } from "@/server/auth/principal";
import { authenticateTokenForAgent } from "@/server/tokens/authenticate-token-for-agent";
import type { TokenAction } from "@/server/tokens/scopes";
import { AppError } from "@/server/errors";
import { credentialCache, db } from "./platform";
import { defineRoute } from "./route";

export type AgentRow = {
  id: string;
  slug: string;
  teamId: string;
  name: string;
  description: string | null;
  activeVersionId: string | null;
};

/** A bearer token, else the dashboard sign-in cookie; nothing else. */
export async function authenticate(request: Request): Promise<Caller> {
  const caller = await authenticateCredentials(request);
  if (caller) return caller;
  throw new AppError(
    "unauthorized",
    "sign in (or sign in again if your sign-in expired), or send Authorization: Bearer <token>",
  );
}

async function authenticateCredentials(request: Request): Promise<Caller | undefined> {
  const authorization = request.headers.get("authorization");
  if (authorization) return authenticateBearer({ db: db(), authorization });
  if (!hasSessionCookie(request.headers)) return undefined;
  // An expired or foreign cookie is no credential: the chain goes on (to anonymous, say).
  const userId = await readSessionUserId(request.headers);
  if (!userId) return undefined;
  assertSameOrigin(request);
  return dashboardCaller({ db: db(), userId });
}

/** The agent a request addresses: the path's first segment, or the single agent at /v1/*. */
export function requestedSlug(request: Request): string {
  const segment = new URL(request.url).pathname.split("/")[1] ?? "";
  if (segment === "v1") return env().AGENTFOLD_SINGLE_AGENT ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The caller, and the agent when authentication already had to look it up (by slug). */
type AgentCaller = { caller: Caller; agent?: { slug: string; row: AgentBySlug | undefined } };

/**
 * The auth chain for agent routes (docs/api.md, "Authentication"): a bearer token; then the
 * dashboard sign-in cookie; then, in single-agent local mode (or for every agent under
 * AGENTFOLD_LOCAL_DEV), a direct loopback caller as the local principal (localDevStrict); then the
 * anonymous caller where the agent opted in (allowAll).
 * Nothing else gets in.
 */
async function authenticateForAgent(request: Request): Promise<AgentCaller> {
  // Before any lookup: a path that cannot be a slug (`%00`, `%ZZ`, too long) names no agent.
  const slug = requestedSlug(request);
  if (!agentSlugPattern.test(slug)) throw new AppError("not_found", "no such agent");
  const authorization = request.headers.get("authorization");
  if (authorization) {
    // Hot path (every API call): the token and the agent in one round trip.
    const { caller, agent } = await authenticateTokenForAgent({
      db: db(),
      authorization,
      slug,
      cache: await credentialCache(),
    });
    return { caller, agent: { slug, row: agent } };
  }
  return authenticateWithoutBearer(request);
}

/** The cookie, local and anonymous callers. The agent, when looking at it was part of deciding,
 * goes along so the route does not read it again. */
async function authenticateWithoutBearer(request: Request): Promise<AgentCaller> {
  const slug = requestedSlug(request);
  let looked: AgentCaller["agent"];
  const lookUp = async () => (looked ??= { slug, row: await findAgentBySlug(db(), slug) }).row;
  const credentials = await authenticateCredentials(request);
  if (credentials?.principal.kind === "user") {
    // A signed-in person from another team is, on a public demo agent, just another visitor.
    const agent = await lookUp();
    if (agent?.allowAnonymous && !credentials.can("agents:read", agent.slug, agent.teamId))
      return { caller: anonymousCaller(agent), agent: looked };
  }
  if (credentials) return { caller: credentials, agent: looked };
  const config = env();
  if (config.AGENTFOLD_LOCAL_DEV || (config.AGENTFOLD_SINGLE_AGENT && slug === config.AGENTFOLD_SINGLE_AGENT)) {
    const evidence = proxyEvidence(request.headers, config.AGENTFOLD_HOST);
    if (!evidence) return { caller: localCaller(slug) };
    const agent = await lookUp();
    if (agent?.allowAnonymous) return { caller: anonymousCaller(agent), agent: looked };
    throw new AppError(
      "unauthorized",
      `local access needs a direct loopback call (${evidence}); send Authorization: Bearer <token>`,
    );
  }
  const agent = await lookUp();
  if (agent?.allowAnonymous) return { caller: anonymousCaller(agent), agent: looked };
  return { caller: await authenticate(request), agent: looked };
}

/** `action` may list several: any one of them lets the caller in. */
export async function loadAgentFor(
  caller: Caller,
  slug: string,
  action: TokenAction | TokenAction[],
  found?: AgentCaller["agent"],
): Promise<AgentRow> {
  const agent = found?.slug === slug ? found.row : await findAgentBySlug(db(), slug);
  if (!agent) throw new AppError("not_found", `no agent '${slug}'`);
  const actions = [action].flat();
  if (!actions.some((one) => caller.can(one, slug, agent.teamId)))
    throw new AppError("forbidden", `this caller may not ${actions.join(" or ")} on '${slug}'`);
  const { allowAnonymous: _, ...row } = agent;
  return row;
}

/** The route's checks made again, for an answer that outlives its request (a stream): the
 * request's credential authenticated anew, and allowed `action` on the agent. */
export async function reauthorize(request: Request, slug: string, action: TokenAction): Promise<Caller> {
  const { caller, agent } = await authenticateForAgent(request);
  await loadAgentFor(caller, slug, action, agent);
  return caller;
}

export function defineAgentRoute<Params extends { slug: string }, Query = unknown, Body = unknown>(definition: {
  action: TokenAction | TokenAction[];
  params: z.ZodType<Params>;
  query?: z.ZodType<Query>;
  body?: z.ZodType<Body>;
  handler: (input: {
    request: Request;
    caller: Caller;
    agent: AgentRow;
    params: Params;
    query: Query;
    body: Body;
  }) => Promise<Response | object>;
}) {
  return defineRoute<AgentCaller, Params, Query, Body>({
    auth: authenticateForAgent,
    params: definition.params,
    query: definition.query,
    body: definition.body,
    handler: async ({ request, principal, params, query, body }) => {
      const { caller, agent: found } = principal!;
      const agent = await loadAgentFor(caller, params.slug, definition.action, found);
      return definition.handler({ request, caller, agent, params, query, body });
    },
  });
}
