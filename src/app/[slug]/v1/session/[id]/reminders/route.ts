// GET /<slug>/v1/session/:id/reminders — the session's pending reminders, soonest first
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { db } from "@/server/http/platform";
import { listReminders } from "@/server/reminders/reminders";
import { getReadableSession } from "@/server/sessions/get-readable-session";
import { sessionIdSchema } from "@/server/sessions/schema";

export const dynamic = "force-dynamic";

export const GET = defineAgentRoute({
  action: "sessions:read",
  params: z.object({ slug: z.string(), id: sessionIdSchema }),
  handler: async ({ caller, agent, params }) => {
    await getReadableSession({ db: db(), agent, sessionId: params.id, caller });
    return { ok: true, reminders: await listReminders(db(), params.id) };
  },
});
