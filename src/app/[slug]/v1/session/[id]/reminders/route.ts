// GET /<slug>/v1/session/:id/reminders — the session's pending reminders, soonest first
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/session/:id/reminders");
