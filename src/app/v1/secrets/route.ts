// Single-agent local mode: secrets at /v1 (see src/server/http/unslugged.ts).
import * as slugged from "@/app/[slug]/v1/secrets/route";
import { unslugged } from "@/server/http/unslugged";

export const dynamic = "force-dynamic";
export const GET = unslugged(slugged.GET);
