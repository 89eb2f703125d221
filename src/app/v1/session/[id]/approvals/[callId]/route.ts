// Single-agent local mode: POST /<slug>/v1/session/:id/approvals/:callId at /v1/session/:id/approvals/:callId (src/server/http/unslugged.ts)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/v1/session/:id/approvals/:callId");
