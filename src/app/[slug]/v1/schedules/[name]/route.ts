// PATCH /<slug>/v1/schedules/:name — pause or resume a schedule
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { PATCH } = v1Handlers("/:slug/v1/schedules/:name");
