import { defineConnection } from "agentfold/connections";

export default defineConnection({
  description: "The helpdesk's ticket API",
  url: "https://helpdesk.example.com/mcp",
  headers: { authorization: "Bearer ${HELPDESK_TOKEN}" },
});
