// POST /<slug>/v1/mcp — the agent as an MCP server (Streamable HTTP)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/:slug/v1/mcp");
