// Single-agent local mode: session/[id]/reminders/[name] at /v1 (see src/server/http/unslugged.ts).
import * as slugged from "@/app/[slug]/v1/session/[id]/reminders/[name]/route";
import { unslugged } from "@/server/http/unslugged";

export const dynamic = "force-dynamic";
export const DELETE = unslugged(slugged.DELETE);
