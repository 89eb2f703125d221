// GET /<slug>/v1/artifacts/stream — NDJSON of the agent's new and updated artifacts, live
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/artifacts/stream");
