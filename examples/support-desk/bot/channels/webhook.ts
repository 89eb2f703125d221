import { defineChannel, POST } from "agentfold/channels";
import { z } from "zod";

// A helpdesk system posts new tickets here.
export default defineChannel({
  routes: [
    POST("/tickets", {
      description: "Open a support session for a new helpdesk ticket",
      bodySchema: z.object({ ticketId: z.string(), text: z.string() }),
      handler: async ({ body }) => Response.json({ ok: true, ticketId: body.ticketId }),
    }),
  ],
});
