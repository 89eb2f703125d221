// Single-agent local mode: PUT, DELETE /<slug>/v1/secrets/:name at /v1/secrets/:name (src/server/http/unslugged.ts)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { PUT, DELETE } = v1Handlers("/v1/secrets/:name");
