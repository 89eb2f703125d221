// GET /v1/health — liveness of the platform and each component; 503 when one is down
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const { GET } = v1Handlers("/v1/health");
