// Single-agent local mode: GET /<slug>/v1/session/:id/eval-draft at /v1/session/:id/eval-draft (src/server/http/unslugged.ts)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/v1/session/:id/eval-draft");
