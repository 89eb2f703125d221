// GET /<slug>/v1/session/:id/events?startIndex=&limit= — one-time NDJSON dump of the log (trace)
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { ndjsonHeaders, ndjsonLine } from "@/server/http/ndjson";
import { db } from "@/server/http/platform";
import { readEvents } from "@/server/events/read-events";
import { getReadableSession } from "@/server/sessions/get-readable-session";
import { sessionIdSchema, startIndexSchema } from "@/server/sessions/schema";
import { queryInteger } from "@/server/validation/schema";

export const dynamic = "force-dynamic";

export const GET = defineAgentRoute({
  action: "sessions:read",
  params: z.object({ slug: z.string(), id: sessionIdSchema }),
  query: z.object({ startIndex: startIndexSchema, limit: queryInteger({ min: 1, max: 10_000, default: 10_000 }) }),
  handler: async ({ caller, agent, params, query }) => {
    await getReadableSession({ db: db(), agent, sessionId: params.id, caller });
    const events = await readEvents({
      db: db(),
      sessionId: params.id,
      fromIndex: query.startIndex,
      limit: query.limit,
    });
    return new Response(Buffer.concat(events.map(ndjsonLine)), { headers: ndjsonHeaders });
  },
});
