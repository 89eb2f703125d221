// GET /v1/agents — the agents the caller may see, with their playground URLs
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/v1/agents");
