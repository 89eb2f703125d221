// GET /<slug>/v1/info — the agent's surface (its active version's manifest)
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/info");
