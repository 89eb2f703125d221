// Single-agent local mode: POST, GET, DELETE /<slug>/v1/session/:id at /v1/session/:id (src/server/http/unslugged.ts)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST, GET, DELETE } = v1Handlers("/v1/session/:id");
