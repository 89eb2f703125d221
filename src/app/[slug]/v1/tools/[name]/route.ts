// POST /<slug>/v1/tools/:name — call a tool directly, with no model turn
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/:slug/v1/tools/:name");
