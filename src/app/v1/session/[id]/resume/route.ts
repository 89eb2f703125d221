// Single-agent local mode: session/[id]/resume at /v1 (see src/server/http/unslugged.ts).
import * as slugged from "@/app/[slug]/v1/session/[id]/resume/route";
import { unslugged } from "@/server/http/unslugged";

export const dynamic = "force-dynamic";
export const POST = unslugged(slugged.POST);
