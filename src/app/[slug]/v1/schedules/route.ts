// GET /<slug>/v1/schedules — the agent's schedules: cron, paused, next run, last run
import { v1Handlers } from "@/server/http/v1-routes";

export const dynamic = "force-dynamic";
export const { GET } = v1Handlers("/:slug/v1/schedules");
