// Single-agent local mode: DELETE /<slug>/v1/session/:id/reminders/:name at /v1/session/:id/reminders/:name (src/server/http/unslugged.ts)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { DELETE } = v1Handlers("/v1/session/:id/reminders/:name");
