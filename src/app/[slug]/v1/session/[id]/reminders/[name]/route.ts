// DELETE /<slug>/v1/session/:id/reminders/:name — cancel a pending reminder
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { AppError } from "@/server/errors";
import { db } from "@/server/http/platform";
import { cancelReminder } from "@/server/reminders/reminders";
import { getOwnedSession } from "@/server/sessions/get-owned-session";
import { sessionIdSchema } from "@/server/sessions/schema";
import { pathNameSchema } from "@/server/validation/schema";

export const dynamic = "force-dynamic";

export const DELETE = defineAgentRoute({
  action: "sessions:write",
  params: z.object({ slug: z.string(), id: sessionIdSchema, name: pathNameSchema }),
  handler: async ({ caller, agent, params }) => {
    await getOwnedSession({ db: db(), agentId: agent.id, sessionId: params.id, principal: caller.principal });
    if (!(await cancelReminder(db(), params.id, params.name)))
      throw new AppError("not_found", `no pending reminder ${params.name}`);
    return { ok: true, id: params.name, cancelled: true };
  },
});
