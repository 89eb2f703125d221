// Single-agent local mode: schedules at /v1 (see src/server/http/unslugged.ts).
import * as slugged from "@/app/[slug]/v1/schedules/route";
import { unslugged } from "@/server/http/unslugged";

export const dynamic = "force-dynamic";
export const GET = unslugged(slugged.GET);
