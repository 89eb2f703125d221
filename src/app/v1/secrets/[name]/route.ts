// Single-agent local mode: secrets/[name] at /v1 (see src/server/http/unslugged.ts).
import * as slugged from "@/app/[slug]/v1/secrets/[name]/route";
import { unslugged } from "@/server/http/unslugged";

export const dynamic = "force-dynamic";
export const PUT = unslugged(slugged.PUT);
export const DELETE = unslugged(slugged.DELETE);
