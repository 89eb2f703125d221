// POST /<slug>/v1/session/:id/stop — interrupt the running turn without sending a message
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/:slug/v1/session/:id/stop");
