// Single-agent local mode: GET, POST /<slug>/v1/dev/evals at /v1/dev/evals (src/server/http/unslugged.ts)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET, POST } = v1Handlers("/v1/dev/evals");
