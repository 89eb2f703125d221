// The end of a Connect (docs/agent-folders.md, "MCP OAuth"): the provider sends the browser back to
// GET /v1/mcp-oauth/callback with a code and the state it was given. The pending authorization of
// that state (unguessable, made when the turn asked, good once) is completed with the MCP SDK's
// own token exchange, and the turns waiting for the connection are told (mcpAuthorizedChannel).
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { PrismaClient } from "@prisma/client";
import { mcpAuthorizedChannel } from "@/server/channels";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import type { ConnectionReach } from "./connection-fetch";
import { reachCheckedFetch, UnreachableConnection } from "./connection-fetch";
import { findPendingAuthorization, mcpOAuthProvider } from "./oauth-store";

export type FinishDeps = {
  db: PrismaClient;
  key: Buffer;
  callbackUrl: string;
  /** What the token request may reach, for the agent (its egress policy, the private MCP hosts). */
  reach: (agentId: string) => Promise<ConnectionReach>;
};

/** The callback every provider is registered with, under the public address (env.ts publicUrl): one
 * for all agents, so that it stays what providers were told while slugs and agents come and go. */
export function mcpOAuthCallbackUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/v1/mcp-oauth/callback`;
}

export async function finishAuthorization(
  deps: FinishDeps,
  query: { state?: string; code?: string; error?: string; error_description?: string },
): Promise<{ slug: string; connection: string }> {
  const pending = query.state ? await findPendingAuthorization(deps.db, query.state) : undefined;
  if (!pending)
    throw new AppError(
      "bad_request",
      "this sign-in link is not waiting for an answer (used already, or replaced by a newer one)",
    );
  if (query.error) throw new AppError("bad_request", `the provider refused: ${query.error_description ?? query.error}`);
  if (!query.code) throw new AppError("bad_request", "the provider sent no authorization code");
  const agent = await deps.db.agent.findUnique({ where: { id: pending.agentId }, select: { slug: true } });
  if (!agent) throw new AppError("not_found", "the agent is gone");
  const target = { ...pending, slug: agent.slug };
  const provider = await mcpOAuthProvider(deps, target);
  const result = await auth(provider, {
    serverUrl: pending.serverUrl,
    authorizationCode: query.code,
    fetchFn: reachCheckedFetch(await deps.reach(pending.agentId)),
  }).catch((error: unknown) => {
    // The provider refusing the code (used, expired, another client's) or a token endpoint the agent
    // may not reach: an answer for the person, who can press Connect again; the state stays pending.
    if (error instanceof OAuthError || error instanceof UnreachableConnection)
      throw new AppError("bad_request", `the provider did not accept the sign-in: ${error.message}`);
    throw error;
  });
  if (result !== "AUTHORIZED") throw new AppError("bad_request", "the provider did not grant access");
  await poolOf(deps.db).query("SELECT pg_notify($1, $2)", [
    mcpAuthorizedChannel.name,
    mcpAuthorizedChannel.encode!({ agentId: pending.agentId, connection: pending.connection }),
  ]);
  return { slug: agent.slug, connection: pending.connection };
}
