import { bearerAuth, defineChannel, POST } from "agentfold/channels";
import { decide } from "agentfold/extensions/jev";
import { z } from "zod";

// A helpdesk system posts tickets here, with the shared secret HELPDESK_WEBHOOK_SECRET as its
// bearer token (or a platform token with channels:invoke). One ticket is one session: its id is
// the conversation key.
export default defineChannel({
  auth: [bearerAuth("${HELPDESK_WEBHOOK_SECRET}")],
  routes: [
    POST("/tickets", {
      description: "Open (or continue) the support session of a helpdesk ticket",
      bodySchema: z.object({ ticketId: z.string().min(1), text: z.string().min(1) }),
      handler: async (_request, { body, send }) => {
        const session = await send(body.text, {
          continuationToken: `ticket:${body.ticketId}`,
          title: `Ticket ${body.ticketId}`,
        });
        return Response.json({ ok: true, ticketId: body.ticketId, sessionId: session.id }, { status: 202 });
      },
    }),
    POST("/tickets/:id/ask", {
      description: "Ask about a ticket and wait for the agent's answer",
      bodySchema: z.object({ text: z.string().min(1) }),
      handler: async (_request, { body, params, send }) => {
        const session = await send(body.text, { continuationToken: `ticket:${params.id}` });
        const done = await session.waitForCompletion();
        return Response.json({ ok: done.status === "finished", sessionId: session.id, ...done });
      },
    }),
    POST("/tickets/:id/triage", {
      description: "Rate a ticket's urgency with one model call, without a turn",
      bodySchema: z.object({ text: z.string().min(1) }),
      handler: async (_request, { body, params }) => {
        const urgency = await decide({
          question: "How urgent is this ticket?",
          context: body.text,
          choices: ["low", "high"],
        });
        return Response.json({ ok: true, ticketId: params.id, urgency });
      },
    }),
  ],
});
