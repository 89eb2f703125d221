// POST /v1/cli-login — start a device-style login for `agentfold login`
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/v1/cli-login");
