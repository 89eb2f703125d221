// Single-agent local mode: POST, GET /<slug>/v1/session at /v1/session (src/server/http/unslugged.ts)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST, GET } = v1Handlers("/v1/session");
