// GET /<slug>/v1/dev/evals/runs/:runId/stream — NDJSON progress of an eval run
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/dev/evals/runs/:runId/stream");
