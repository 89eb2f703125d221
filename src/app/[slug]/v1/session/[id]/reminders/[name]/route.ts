// DELETE /<slug>/v1/session/:id/reminders/:name — cancel a pending reminder
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { DELETE } = v1Handlers("/:slug/v1/session/:id/reminders/:name");
