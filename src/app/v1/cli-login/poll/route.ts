// POST /v1/cli-login/poll — a started login's state, and once approved its token
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { POST } = v1Handlers("/v1/cli-login/poll");
