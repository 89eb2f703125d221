// POST /<slug>/v1/dev/schedules/:name — fire a schedule now (hand dispatch); answers its task session
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/:slug/v1/dev/schedules/:name");
