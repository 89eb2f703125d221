// Single-agent local mode: dev/schedules/[name] at /v1 (see src/server/http/unslugged.ts).
import * as slugged from "@/app/[slug]/v1/dev/schedules/[name]/route";
import { unslugged } from "@/server/http/unslugged";

export const dynamic = "force-dynamic";
export const POST = unslugged(slugged.POST);
