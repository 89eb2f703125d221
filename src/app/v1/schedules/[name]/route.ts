// Single-agent local mode: schedules/[name] at /v1 (see src/server/http/unslugged.ts).
import * as slugged from "@/app/[slug]/v1/schedules/[name]/route";
import { unslugged } from "@/server/http/unslugged";

export const dynamic = "force-dynamic";
export const PATCH = unslugged(slugged.PATCH);
