// POST /v1/agents/:slug/versions — upload an agent folder (.zip or .tar.gz body) as a new version
import { z } from "zod";
import { env } from "@/env";
import { agentSlugSchema } from "@/server/agents/schema";
import { defaultUploadLimits } from "@/server/agents/intake/upload-limits";
import { uploadAgentVersion } from "@/server/agents/upload-agent-version";
import { authenticate } from "@/server/http/agent-route";
import { db, durableRuntime } from "@/server/http/platform";
import { readBodyBytes } from "@/server/http/read-json";
import { defineRoute } from "@/server/http/route";
import { storableString } from "@/server/validation/schema";

export const dynamic = "force-dynamic";

export const POST = defineRoute({
  auth: authenticate,
  params: z.object({ slug: agentSlugSchema }),
  query: z.object({
    team: storableString().min(1).max(200).optional(),
    activate: z.enum(["true", "false"]).default("true"),
  }),
  handler: async ({ request, principal, params, query }) => {
    const version = await uploadAgentVersion({
      db: db(),
      runtime: durableRuntime(),
      dataDir: env().dataDir,
      caller: principal!,
      slug: params.slug,
      teamSlug: query.team,
      readArchive: () => readBodyBytes(request, defaultUploadLimits.maxArchiveBytes),
      activate: query.activate === "true",
    });
    return { ok: true, version };
  },
});
