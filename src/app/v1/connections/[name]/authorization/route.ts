// Single-agent local mode: DELETE /<slug>/v1/connections/:name/authorization at /v1/connections/:name/authorization
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { DELETE } = v1Handlers("/v1/connections/:name/authorization");
