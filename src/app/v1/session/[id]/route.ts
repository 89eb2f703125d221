// Single-agent local mode: session/[id] at /v1 (see src/server/http/unslugged.ts).
import * as slugged from "@/app/[slug]/v1/session/[id]/route";
import { unslugged } from "@/server/http/unslugged";

export const dynamic = "force-dynamic";
export const POST = unslugged(slugged.POST);
export const GET = unslugged(slugged.GET);
export const DELETE = unslugged(slugged.DELETE);
