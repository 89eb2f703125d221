// GET, POST /<slug>/v1/dev/evals — the agent's evals; start a run
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET, POST } = v1Handlers("/:slug/v1/dev/evals");
