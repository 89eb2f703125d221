// PUT    /<slug>/v1/secrets/:name — set or rotate a secret
// DELETE /<slug>/v1/secrets/:name — remove a secret
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { PUT, DELETE } = v1Handlers("/:slug/v1/secrets/:name");
