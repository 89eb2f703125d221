// POST   /<slug>/v1/session/:id — follow up on a chat session (rotates the continuation token)
// GET    /<slug>/v1/session/:id — the session's state and the calls parked for a decision
// DELETE /<slug>/v1/session/:id — delete the session and its log
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST, GET, DELETE } = v1Handlers("/:slug/v1/session/:id");
