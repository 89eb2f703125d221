// POST /<slug>/v1/session — start a chat session and its first turn
// GET  /<slug>/v1/session — the caller's sessions on this agent (and task sessions it may read), newest first, paginated
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST, GET } = v1Handlers("/:slug/v1/session");
