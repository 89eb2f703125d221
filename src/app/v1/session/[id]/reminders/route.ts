// Single-agent local mode: session/[id]/reminders at /v1 (see src/server/http/unslugged.ts).
import * as slugged from "@/app/[slug]/v1/session/[id]/reminders/route";
import { unslugged } from "@/server/http/unslugged";

export const dynamic = "force-dynamic";
export const GET = unslugged(slugged.GET);
