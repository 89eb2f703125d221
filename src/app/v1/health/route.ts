// GET /v1/health — liveness of the platform and each component; 503 when one is down (public)
import { getHealth } from "@/server/health/get-health";
import { platformChecks } from "@/server/health/platform-checks";
import { defineRoute } from "@/server/http/route";
import { json } from "@/server/http/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export const GET = defineRoute({
  auth: "public",
  handler: async () => {
    const health = await getHealth({ checks: platformChecks() });
    return json(health, health.ok ? 200 : 503);
  },
});
