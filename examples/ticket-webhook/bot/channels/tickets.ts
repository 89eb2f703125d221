import { bearerAuth, defineChannel, POST } from "agentfold/channels";
import { z } from "zod";

type TicketState = { ticketId: string; callbackUrl: string; replies: number };

// The helpdesk posts a ticket's messages here and is answered 202 at once; every reply of the
// agent is posted to the ticket's callback URL by the events map, one request per reply.
export default defineChannel<TicketState>({
  auth: [bearerAuth("${TICKETS_WEBHOOK_SECRET}")],
  state: { ticketId: "", callbackUrl: "", replies: 0 },
  routes: [
    POST("/", {
      description: "A message on a helpdesk ticket; the reply goes to callbackUrl",
      bodySchema: z.object({ ticketId: z.string().min(1), text: z.string().min(1), callbackUrl: z.url() }),
      handler: async (_request, { body, send }) => {
        const session = await send(body.text, {
          continuationToken: `ticket:${body.ticketId}`,
          title: `Ticket ${body.ticketId}`,
          // Kept for a new ticket's session; later messages keep the first callback.
          state: { ticketId: body.ticketId, callbackUrl: body.callbackUrl, replies: 0 },
        });
        return Response.json({ accepted: true, ticketId: body.ticketId, sessionId: session.id }, { status: 202 });
      },
    }),
  ],
  events: {
    "message.completed": async (event, channel) => {
      channel.state.replies += 1;
      const response = await fetch(channel.state.callbackUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ticketId: channel.state.ticketId, reply: event.data.text, n: channel.state.replies }),
      });
      if (!response.ok) throw new Error(`the callback answered ${response.status}`);
    },
  },
});
