// GET /<slug>/v1/session/:id/eval-draft — the session as a draft eval to save under evals/
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/session/:id/eval-draft");
