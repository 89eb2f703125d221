// GET /v1/mcp-oauth/callback — an MCP connection's OAuth provider sends the browser back here
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const { GET } = v1Handlers("/v1/mcp-oauth/callback");
