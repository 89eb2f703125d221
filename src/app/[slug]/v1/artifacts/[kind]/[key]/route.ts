// GET /<slug>/v1/artifacts/:kind/:key — one artifact, or its JSON file with ?download=1
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/artifacts/:kind/:key");
