// DELETE /<slug>/v1/connections/:name/authorization — Disconnect: forget the agent's OAuth tokens for a connection
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { DELETE } = v1Handlers("/:slug/v1/connections/:name/authorization");
