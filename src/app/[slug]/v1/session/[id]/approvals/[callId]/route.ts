// POST /<slug>/v1/session/:id/approvals/:callId — approve or deny a parked tool call
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/:slug/v1/session/:id/approvals/:callId");
