// The host-level routes of the /v1 table: /v1/health, /v1/agents…
import { z } from "zod";
import { env } from "@/env";
import { defaultUploadLimits } from "@/server/agents/intake/upload-limits";
import { agentSlugSchema, uploadedVersionSchema, visibleAgentsSchema } from "@/server/agents/schema";
import { uploadAgentVersion } from "@/server/agents/upload-agent-version";
import { getHealth } from "@/server/health/get-health";
import { modelRouting } from "@/server/models";
import { platformChecks } from "@/server/health/platform-checks";
import { healthSchema } from "@/server/health/schema";
import { storableString } from "@/server/validation/schema";
import { db, durableRuntime } from "../platform";
import { readBodyBytes } from "../read-json";
import { json } from "../respond";
import { type UploadStep, uploadProgressResponse, wantsUploadProgress } from "../upload-progress";
import { hostRoute } from "../v1-route";

export const hostRoutes = [
  hostRoute({
    method: "GET",
    path: "/v1/health",
    name: "getHealth",
    summary: "Liveness of the platform and each component; 503 when one is down",
    access: "public",
    response: { json: healthSchema },
    alsoAnswers: [503],
    handler: async () => {
      const health = await getHealth({ checks: platformChecks() });
      return json(health, health.ok ? 200 : 503);
    },
  }),
  hostRoute({
    method: "GET",
    path: "/v1/agents",
    name: "listAgents",
    summary: "The agents the caller may see, with their playground URLs",
    access: "caller",
    response: { json: visibleAgentsSchema },
    handler: async ({ request, caller }) => {
      const origin = new URL(request.url).origin;
      const agents = await db().agent.findMany({
        // A token belongs to one team, a signed-in person to theirs; `can` decides per agent below.
        where: caller?.teamId ? { teamId: caller.teamId } : caller?.teamIds ? { teamId: { in: caller.teamIds } } : {},
        select: { slug: true, name: true, description: true, teamId: true },
        orderBy: { slug: "asc" },
      });
      const visible = agents.filter(
        (agent) =>
          caller!.can("agents:read", agent.slug, agent.teamId) ||
          caller!.can("sessions:read", agent.slug, agent.teamId),
      );
      return {
        ok: true,
        agents: visible.map((agent) => ({
          slug: agent.slug,
          name: agent.name,
          description: agent.description,
          playgroundUrl: `${origin}/${agent.slug}/playground`,
        })),
      };
    },
  }),
  hostRoute({
    method: "POST",
    path: "/v1/agents/:slug/versions",
    name: "uploadAgentVersion",
    summary: "Upload an agent folder (.zip or .tar.gz body) as a new version",
    access: "caller",
    params: { slug: agentSlugSchema },
    query: z.object({
      team: storableString().min(1).max(200).optional(),
      activate: z.enum(["true", "false"]).default("true"),
    }),
    rawBody: ["application/zip", "application/gzip"],
    response: { json: uploadedVersionSchema },
    handler: async ({ request, caller, params, query }) => {
      const upload = (onStep?: (step: UploadStep) => void) =>
        uploadAgentVersion({
          db: db(),
          runtime: durableRuntime(),
          dataDir: env().dataDir,
          caller: caller!,
          slug: params.slug,
          teamSlug: query.team,
          readArchive: () => readBodyBytes(request, defaultUploadLimits.maxArchiveBytes),
          activate: query.activate === "true",
          models: modelRouting(env()),
          onStep,
        });
      // `agentfold deploy` asks for its steps as NDJSON; every other client gets the JSON answer.
      if (wantsUploadProgress(request)) return uploadProgressResponse(upload);
      return { ok: true, version: await upload() };
    },
  }),
];
