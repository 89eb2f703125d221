// GET /<slug>/v1/session/:id/events — one-time NDJSON dump of the session's log (trace)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/session/:id/events");
