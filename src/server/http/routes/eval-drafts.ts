// GET /<slug>/v1/session/:id/eval-draft — the session as a draft eval to save under evals/
import { draftEvalFromSession, evalDraftSchema } from "@/server/evals/draft-eval";
import { getReadableSession } from "@/server/sessions/get-readable-session";
import { sessionIdSchema } from "@/server/sessions/schema";
import { db } from "../platform";
import { agentRoute } from "../v1-route";

export const evalDraftRoutes = [
  agentRoute({
    method: "GET",
    path: "/:slug/v1/session/:id/eval-draft",
    name: "draftEvalFromSession",
    summary: "A draft eval that sends the session's messages again and asserts what it did",
    action: "sessions:read",
    params: { id: sessionIdSchema },
    response: { json: evalDraftSchema },
    handler: async ({ caller, agent, params }) => {
      // The draft quotes the session's messages: whoever may read its log, and nobody else.
      await getReadableSession({ db: db(), agent, sessionId: params.id, caller });
      return { ok: true, ...(await draftEvalFromSession({ db: db(), agentId: agent.id, sessionId: params.id })) };
    },
  }),
];
