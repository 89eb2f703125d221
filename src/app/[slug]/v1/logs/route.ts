// GET /<slug>/v1/logs — the agent's log lines, filtered; poll with the answer's nextCursor
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/logs");
