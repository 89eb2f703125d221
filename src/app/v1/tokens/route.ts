// POST /v1/tokens — make a token with a token, within its own scopes
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/v1/tokens");
