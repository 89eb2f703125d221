// POST /v1/agents/:slug/versions — upload an agent folder (.zip or .tar.gz body) as a new version
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/v1/agents/:slug/versions");
