// GET /v1/whoami — who the credential is
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/v1/whoami");
