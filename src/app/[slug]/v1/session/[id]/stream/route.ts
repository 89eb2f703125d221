// GET /<slug>/v1/session/:id/stream?startIndex=N — NDJSON: replay from N, then live
import { z } from "zod";
import { credentialMaxAgeMs } from "@/server/auth/credential-cache";
import { defineAgentRoute, reauthorize } from "@/server/http/agent-route";
import { ndjsonHeaders } from "@/server/http/ndjson";
import { db, eventHub } from "@/server/http/platform";
import { readableOrThrow } from "@/server/sessions/get-readable-session";
import { sessionIdSchema, startIndexSchema } from "@/server/sessions/schema";
import { openSessionStream } from "@/server/events/stream-session";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = defineAgentRoute({
  action: "sessions:read",
  params: z.object({ slug: z.string(), id: sessionIdSchema }),
  query: z.object({ startIndex: startIndexSchema, heartbeat: z.enum(["0", "1"]).optional() }),
  handler: async ({ request, caller, agent, params, query }) => {
    const sessionId = params.id;
    // One statement checks the session (404, 403) and reads the log's first page.
    const stream = await openSessionStream({
      db: db(),
      hub: await eventHub(),
      agentId: agent.id,
      sessionId,
      check: (session) => readableOrThrow({ session, caller, agent, sessionId }),
      // A revoked token (or a reader who lost the right) ends an open stream within the
      // credential cache's bound, as it would refuse a new request.
      recheck: {
        everyMs: credentialMaxAgeMs,
        check: async (session) =>
          readableOrThrow({
            session,
            caller: await reauthorize(request, params.slug, "sessions:read"),
            agent,
            sessionId,
          }),
      },
      startIndex: query.startIndex,
      heartbeatMs: query.heartbeat === "0" ? 0 : 15_000,
      endAfter: (session) =>
        session.mode === "task"
          ? (event) => event.type === "session.completed" || event.type === "session.failed"
          : undefined,
    });
    return new Response(stream, { headers: ndjsonHeaders });
  },
});
