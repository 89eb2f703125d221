// The per-agent routes of the /v1 table besides sessions: info, direct tool calls, artifacts, logs,
// schedules, secrets.
import { z } from "zod";
import { agentInfoSchema } from "@/server/agents/schema";
import { findArtifact, findArtifacts } from "@/server/artifacts/find-artifacts";
import {
  artifactAnswerSchema,
  artifactListSchema,
  artifactQuerySchema,
  listArtifactsQuerySchema,
  streamArtifactsQuerySchema,
} from "@/server/artifacts/schema";
import { artifactStreamLineSchema, openArtifactStream } from "@/server/artifacts/stream-artifacts";
import { credentialMaxAgeMs } from "@/server/auth/credential-cache";
import { AppError } from "@/server/errors";
import { ndjsonHeaders } from "../ndjson";
import { findAgentLogs } from "@/server/logging/find-agent-logs";
import { findLogsQuerySchema, logListSchema } from "@/server/logging/schema";
import { findSchedules } from "@/server/schedules/find-schedules";
import { scheduleFiredSchema, scheduleListSchema, schedulePausedSchema } from "@/server/schedules/schema";
import { setSchedulePaused } from "@/server/schedules/set-schedule-paused";
import { changedBy } from "@/server/secrets/changed-by";
import { listSecrets } from "@/server/secrets/list-secrets";
import { removeSecret } from "@/server/secrets/remove-secret";
import {
  secretListAnswerSchema,
  secretNameSchema,
  secretRemovedAnswerSchema,
  secretSetAnswerSchema,
  secretValueSchema,
} from "@/server/secrets/schema";
import { setSecret } from "@/server/secrets/set-secret";
import { callTool } from "@/server/tools/call-tool";
import { directCallBodySchema, directCallResultSchema } from "@/server/tools/schema";
import { pathNameSchema } from "@/server/validation/schema";
import { reauthorize } from "../agent-route";
import { agentSecretKey, db, durableRuntime, eventHub } from "../platform";
import { agentRoute } from "../v1-route";

export const agentRoutes = [
  agentRoute({
    method: "GET",
    path: "/:slug/v1/info",
    name: "getAgentInfo",
    summary: "The agent's surface (its active version's manifest)",
    action: "agents:read",
    response: { json: agentInfoSchema },
    handler: async ({ agent }) => {
      if (!agent.activeVersionId) throw new AppError("not_found", `agent '${agent.slug}' has no active version`);
      const version = await db().agentVersion.findUniqueOrThrow({
        where: { id: agent.activeVersionId },
        select: { number: true, manifest: true },
      });
      return { ok: true, slug: agent.slug, version: version.number, agent: version.manifest };
    },
  }),
  agentRoute({
    method: "POST",
    path: "/:slug/v1/tools/:name",
    name: "callTool",
    summary: "Call a tool directly, with no model turn",
    action: "tools:call",
    params: { name: pathNameSchema },
    body: directCallBodySchema,
    response: { json: directCallResultSchema },
    handler: async ({ caller, agent, params, body }) =>
      callTool({ db: db(), runtime: durableRuntime(), agent, caller, toolName: params.name, body }),
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/artifacts",
    name: "listArtifacts",
    summary: "The agent's artifacts, newest updated first, filtered by kind, session and time; paged",
    action: "artifacts:read",
    query: listArtifactsQuerySchema,
    response: { json: artifactListSchema },
    handler: async ({ agent, query }) => ({ ok: true, ...(await findArtifacts(db(), agent.id, query)) }),
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/artifacts/stream",
    name: "streamArtifacts",
    summary: "NDJSON: the agent's new and updated artifacts as they are tagged (after a cursor, or since a time)",
    action: "artifacts:read",
    query: streamArtifactsQuerySchema,
    response: { ndjson: artifactStreamLineSchema },
    handler: async ({ request, agent, params, query }) => {
      const stream = await openArtifactStream({
        db: db(),
        hub: await eventHub(),
        agentId: agent.id,
        kind: query.kind,
        session: query.session,
        after: query.after,
        updatedSince: query.updatedSince,
        heartbeatMs: query.heartbeat === "0" ? 0 : 15_000,
        // A revoked token ends an open stream within the credential cache's bound.
        recheck: { everyMs: credentialMaxAgeMs, check: () => reauthorize(request, params.slug, "artifacts:read") },
      });
      return new Response(stream, { headers: ndjsonHeaders });
    },
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/artifacts/:kind/:key",
    name: "getArtifact",
    summary: "One artifact; ?download=1 answers it as a JSON file",
    action: "artifacts:read",
    params: { kind: pathNameSchema, key: pathNameSchema },
    query: artifactQuerySchema,
    response: { json: artifactAnswerSchema },
    handler: async ({ agent, params, query }) => {
      const artifact = await findArtifact(db(), agent.id, params.kind, params.key);
      if (!query.download) return { ok: true, artifact };
      const name = `${artifact.kind}-${artifact.key}`.replace(/[^A-Za-z0-9._-]+/g, "_");
      return new Response(JSON.stringify(artifact, null, 2), {
        headers: { "content-type": "application/json", "content-disposition": `attachment; filename="${name}.json"` },
      });
    },
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/logs",
    name: "listLogs",
    summary:
      "The agent's log lines (its code's console output and errors, the platform's notes), oldest first; poll with nextCursor",
    action: "agents:read",
    query: findLogsQuerySchema,
    response: { json: logListSchema },
    handler: async ({ agent, query }) => ({ ok: true, ...(await findAgentLogs(db(), agent.id, query)) }),
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/schedules",
    name: "listSchedules",
    summary: "The agent's schedules: cron, paused, next run, last run",
    action: "agents:read",
    response: { json: scheduleListSchema },
    handler: async ({ agent }) => ({ ok: true, schedules: await findSchedules({ db: db(), agentId: agent.id }) }),
  }),
  agentRoute({
    method: "PATCH",
    path: "/:slug/v1/schedules/:name",
    name: "setSchedulePaused",
    summary: "Pause or resume a schedule",
    action: "agents:deploy",
    params: { name: pathNameSchema },
    body: z.strictObject({ paused: z.boolean() }),
    response: { json: schedulePausedSchema },
    handler: async ({ agent, params, body }) =>
      setSchedulePaused({ db: db(), agentId: agent.id, name: params.name, paused: body.paused }),
  }),
  agentRoute({
    method: "POST",
    path: "/:slug/v1/dev/schedules/:name",
    name: "fireSchedule",
    summary: "Fire a schedule now (hand dispatch); answers its task session",
    action: "agents:deploy",
    params: { name: pathNameSchema },
    response: { json: scheduleFiredSchema },
    handler: async ({ agent, params }) => {
      const fired = await durableRuntime().fireSchedule(agent.id, params.name);
      if (!fired.ok) throw AppError.fromBody(fired);
      return fired;
    },
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/secrets",
    name: "listSecrets",
    summary: "The agent's secret names, when each was set, and which the active version is missing",
    action: "agents:deploy",
    response: { json: secretListAnswerSchema },
    handler: async ({ agent }) => ({ ok: true, ...(await listSecrets({ db: db(), agentId: agent.id })) }),
  }),
  agentRoute({
    method: "PUT",
    path: "/:slug/v1/secrets/:name",
    name: "setSecret",
    summary: "Set or rotate a secret",
    action: "agents:deploy",
    params: { name: secretNameSchema },
    body: z.strictObject({ value: secretValueSchema }),
    response: { json: secretSetAnswerSchema },
    handler: async ({ caller, agent, params, body }) => ({
      ok: true,
      ...(await setSecret({
        db: db(),
        key: agentSecretKey(),
        agentId: agent.id,
        name: params.name,
        value: body.value,
        updatedBy: changedBy(caller.principal),
      })),
    }),
  }),
  agentRoute({
    method: "DELETE",
    path: "/:slug/v1/secrets/:name",
    name: "removeSecret",
    summary: "Remove a secret",
    action: "agents:deploy",
    params: { name: secretNameSchema },
    response: { json: secretRemovedAnswerSchema },
    handler: async ({ agent, params }) => ({
      ok: true,
      ...(await removeSecret({ db: db(), agentId: agent.id, name: params.name })),
    }),
  }),
];
