import { defineAgent } from "@cursor/bdk";

export default defineAgent({
  name: "Support desk",
  description: "Answers customer questions about orders, refunds and shipping.",
  hosting: { secretNames: ["HELPDESK_TOKEN", "HELPDESK_WEBHOOK_SECRET"] },
});
