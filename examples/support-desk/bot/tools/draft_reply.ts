import { defineTool } from "@cursor/july/tools";
import { z } from "zod";

// Runs as a script inside the session workspace, listed in AGENTS.md.
export default defineTool({
  description: "Drafts a reply to the customer from a few bullet points.",
  inputSchema: z.object({ points: z.array(z.string()).min(1) }),
  execution: "agent",
  effect: "read",
  async execute({ points }) {
    return `Hi! ${points.join(" ")} Best, Support Desk`;
  },
});
