// GET /<slug>/v1/session/:id/stream — nDJSON: the session's events from startIndex, then live
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const { GET } = v1Handlers("/:slug/v1/session/:id/stream");
