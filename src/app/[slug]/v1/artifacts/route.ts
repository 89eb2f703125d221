// GET /<slug>/v1/artifacts — the agent's artifacts, newest updated first, filtered and paged
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/artifacts");
