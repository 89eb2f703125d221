// POST /v1/tokens/revoke — revoke a token of the caller's team, given its secret
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/v1/tokens/revoke");
