// An agent's MCP connections and their OAuth state (list, Disconnect), and
// GET /v1/mcp-oauth/callback: where an MCP connection's OAuth provider sends the browser back
// (docs/agent-folders.md, "MCP OAuth"). Public: the person arrives from the provider with no
// token of ours; the unguessable, single-use `state` is what ties the answer to the agent and
// connection that asked. Answers a small page to close (and tells the playground that opened it).
import { z } from "zod";
import { env } from "@/env";
import { AppError } from "@/server/errors";
import { finishAuthorization, mcpOAuthCallbackUrl } from "@/server/mcp/finish-authorization";
import { connectionListSchema, disconnectConnection, listConnectionStates } from "@/server/mcp/connection-states";
import { versionReach } from "@/server/mcp/process-connections";
import { pathNameSchema } from "@/server/validation/schema";
import { agentSecretKey, db } from "../platform";
import { agentRoute, hostRoute } from "../v1-route";

const callbackQuerySchema = z.object({
  code: z.string().max(4_000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2_000).optional(),
});

export const mcpOAuthRoutes = [
  agentRoute({
    method: "GET",
    path: "/:slug/v1/connections",
    name: "listConnections",
    summary: "The agent's MCP connections, with the state of their OAuth authorization",
    action: "agents:read",
    response: { json: connectionListSchema },
    handler: async ({ agent }) => ({ ok: true, connections: await listConnectionStates(db(), agent) }),
  }),
  agentRoute({
    method: "DELETE",
    path: "/:slug/v1/connections/:name/authorization",
    name: "disconnectConnection",
    summary: "Disconnect an OAuth MCP connection: forget the agent's tokens for it",
    action: "agents:deploy",
    params: { name: pathNameSchema },
    response: { json: z.object({ ok: z.literal(true), removed: z.literal(true) }) },
    handler: async ({ agent, params }) => ({ ok: true, ...(await disconnectConnection(db(), agent.id, params.name)) }),
  }),
  hostRoute({
    method: "GET",
    path: "/v1/mcp-oauth/callback",
    name: "mcpOAuthCallback",
    summary: "Completes an MCP connection's OAuth Connect (the provider's redirect); answers an HTML page",
    access: "public",
    query: callbackQuerySchema,
    response: { html: "A page saying whether the connection was connected (400 when it was not)" },
    alsoAnswers: [400],
    handler: async ({ query }) => {
      const config = env();
      const reach = versionReach({
        db: db(),
        egress: config.AGENTFOLD_EGRESS,
        privateHosts: config.AGENTFOLD_MCP_PRIVATE_HOSTS,
      });
      try {
        const { connection } = await finishAuthorization(
          {
            db: db(),
            key: agentSecretKey(),
            callbackUrl: mcpOAuthCallbackUrl(config.publicUrl),
            reach: async (agentId) => {
              const agent = await db().agent.findUnique({ where: { id: agentId }, select: { activeVersionId: true } });
              if (!agent?.activeVersionId) throw new AppError("conflict", "the agent has no active version");
              return reach(agent.activeVersionId);
            },
          },
          query,
        );
        return page(200, `Connected ${connection}`, "You can close this tab: the agent goes on.");
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return page(400, "Not connected", error.message);
      }
    },
  }),
];

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(status: number, title: string, text: string): Response {
  // No script: the playground opened this tab without an opener and learns from the session's
  // connection.auth_resolved event.
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family: system-ui, sans-serif; margin: 4rem auto; max-width: 32rem"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
    },
  });
}
