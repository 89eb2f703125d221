import { defineAgent } from "agentfold";

export default defineAgent({
  name: "Ticket webhook",
  description: "Answers helpdesk tickets posted to a webhook, and posts each reply to the ticket's callback URL.",
  hosting: { secretNames: ["TICKETS_WEBHOOK_SECRET"] },
});
