import { defineConnection } from "agentfold/connections";

// The example helpdesk in examples/helpdesk-mcp (`npm run example:helpdesk`). Optional: without
// it running, turns go on without its tools and the agent's logs say so.
export default defineConnection({
  description: "The helpdesk's ticket API",
  url: "http://127.0.0.1:4610/mcp",
  headers: { authorization: "Bearer ${HELPDESK_TOKEN}" },
  advertiseTools: true,
  optional: true,
});
