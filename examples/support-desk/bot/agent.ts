import { defineAgent } from "@cursor/bdk";

export default defineAgent({
  description: "Answers customer questions about orders, refunds and shipping.",
  hosting: { secretNames: ["HELPDESK_TOKEN"] },
});
