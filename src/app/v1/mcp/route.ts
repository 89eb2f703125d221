// Single-agent local mode: POST /<slug>/v1/mcp at /v1/mcp (src/server/http/unslugged.ts)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/v1/mcp");
