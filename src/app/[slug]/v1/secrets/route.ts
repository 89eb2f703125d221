// GET /<slug>/v1/secrets — the agent's secret names, when each was set, and which the active version is missing
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/secrets");
