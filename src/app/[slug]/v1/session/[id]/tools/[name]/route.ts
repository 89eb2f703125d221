// POST /<slug>/v1/session/:id/tools/:name — call a tool against a session (409 session_busy for a write during a turn)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/:slug/v1/session/:id/tools/:name");
