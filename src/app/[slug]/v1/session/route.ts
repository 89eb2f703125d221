// POST /<slug>/v1/session — start a chat session and its first turn
// GET  /<slug>/v1/session — the caller's sessions on this agent (and task sessions it may read), newest first, paginated
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db, durableRuntime } from "@/server/http/platform";
import { json } from "@/server/http/respond";
import { findSessions } from "@/server/sessions/find-sessions";
import { listSessionsQuerySchema, startSessionBodySchema } from "@/server/sessions/schema";
import { startSession } from "@/server/sessions/start-session";

export const dynamic = "force-dynamic";
const params = z.object({ slug: z.string() });

export const POST = defineAgentRoute({
  action: "sessions:write",
  params,
  body: startSessionBodySchema,
  handler: async ({ request, caller, agent, body }) =>
    startSession({
      db: db(),
      runtime: durableRuntime(),
      agent,
      principal: caller.principal,
      body,
      baseUrl: new URL(request.url).origin,
    }),
});

export const GET = defineAgentRoute({
  action: "sessions:read",
  params,
  query: listSessionsQuerySchema,
  handler: async ({ caller, agent, query }) => {
    const includesTaskSessions = (await caller.canReadTaskSessions?.(agent.slug, agent.teamId)) ?? false;
    const page = await findSessions({
      db: db(),
      agentId: agent.id,
      principal: caller.principal,
      query,
      includesTaskSessions,
    });
    return json({ ok: true, sessions: page.items, nextCursor: page.nextCursor });
  },
});
