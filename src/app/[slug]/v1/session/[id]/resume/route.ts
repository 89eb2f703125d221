// POST /<slug>/v1/session/:id/resume — the owner continues the session from this client (new continuation token)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/:slug/v1/session/:id/resume");
