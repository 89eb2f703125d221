// Single-agent local mode: PATCH /<slug>/v1/schedules/:name at /v1/schedules/:name (src/server/http/unslugged.ts)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { PATCH } = v1Handlers("/v1/schedules/:name");
