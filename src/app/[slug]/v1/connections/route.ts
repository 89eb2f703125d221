// GET /<slug>/v1/connections — the agent's MCP connections and the state of their OAuth authorization
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/connections");
