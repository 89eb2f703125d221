// The session routes of the /v1 table: /<slug>/v1/session…
import { z } from "zod";
import { findPendingApprovals } from "@/server/approvals/find-pending-approvals";
import { decideApproval } from "@/server/approvals/decide-approval";
import { approvalDecidedSchema, callIdSchema, decideApprovalBodySchema } from "@/server/approvals/schema";
import { credentialMaxAgeMs } from "@/server/auth/credential-cache";
import { AppError } from "@/server/errors";
import { readEvents } from "@/server/events/read-events";
import { streamLineSchema } from "@/server/events/schema";
import { openSessionStream } from "@/server/events/stream-session";
import { cancelReminder, listReminders } from "@/server/reminders/reminders";
import { reminderCancelledSchema, reminderListSchema } from "@/server/reminders/schema";
import { deleteSession } from "@/server/sessions/delete-session";
import { describeSession } from "@/server/sessions/describe-session";
import { findSessions } from "@/server/sessions/find-sessions";
import { followUpSession } from "@/server/sessions/follow-up-session";
import { getOwnedSession } from "@/server/sessions/get-owned-session";
import { getReadableSession, readableOrThrow } from "@/server/sessions/get-readable-session";
import { resumeSession } from "@/server/sessions/resume-session";
import * as sessions from "@/server/sessions/schema";
import { startSession } from "@/server/sessions/start-session";
import { stopSession } from "@/server/sessions/stop-session";
import { callTool } from "@/server/tools/call-tool";
import { directCallBodySchema, directCallResultSchema } from "@/server/tools/schema";
import { pathNameSchema, queryInteger } from "@/server/validation/schema";
import { reauthorize } from "../agent-route";
import { ndjsonHeaders, ndjsonLine } from "../ndjson";
import { db, durableRuntime, eventHub } from "../platform";
import { json } from "../respond";
import { agentRoute } from "../v1-route";

const id = sessions.sessionIdSchema;

export const sessionRoutes = [
  agentRoute({
    method: "POST",
    path: "/:slug/v1/session",
    name: "startSession",
    summary: "Start a chat session and its first turn",
    action: "sessions:write",
    body: sessions.startSessionBodySchema,
    response: { json: sessions.sessionStartedSchema },
    isHot: true,
    handler: async ({ request, caller, agent, body }) =>
      startSession({
        db: db(),
        runtime: durableRuntime(),
        agent,
        principal: caller.principal,
        body,
        baseUrl: new URL(request.url).origin,
      }),
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/session",
    name: "listSessions",
    summary: "The caller's sessions on this agent (and task sessions it may read), newest first, paginated",
    action: "sessions:read",
    query: sessions.listSessionsQuerySchema,
    response: { json: sessions.sessionPageSchema },
    handler: async ({ caller, agent, query }) => {
      const includesTaskSessions = (await caller.canReadTaskSessions?.(agent.slug, agent.teamId)) ?? false;
      const page = await findSessions({
        db: db(),
        agentId: agent.id,
        principal: caller.principal,
        query,
        includesTaskSessions,
      });
      return json({ ok: true, sessions: page.items, nextCursor: page.nextCursor });
    },
  }),
  agentRoute({
    method: "POST",
    path: "/:slug/v1/session/:id",
    name: "followUpSession",
    summary: "Follow up on a chat session (rotates the continuation token)",
    action: "sessions:write",
    params: { id },
    body: sessions.followUpBodySchema,
    response: { json: sessions.followUpAcceptedSchema },
    isHot: true,
    handler: async ({ caller, agent, params, body }) =>
      followUpSession({
        db: db(),
        runtime: durableRuntime(),
        agentId: agent.id,
        sessionId: params.id,
        principal: caller.principal,
        body,
      }),
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/session/:id",
    name: "getSession",
    summary: "The session's state and the calls parked for a decision",
    action: "sessions:read",
    params: { id },
    response: { json: sessions.sessionStateSchema },
    handler: async ({ caller, agent, params }) => {
      const session = await getReadableSession({ db: db(), agent, sessionId: params.id, caller });
      return {
        ok: true,
        session: describeSession(session),
        pendingApprovals: await findPendingApprovals(db(), session.id),
      };
    },
  }),
  agentRoute({
    method: "DELETE",
    path: "/:slug/v1/session/:id",
    name: "deleteSession",
    summary: "Delete the session and its log",
    action: "sessions:write",
    params: { id },
    response: { json: sessions.sessionDeletedSchema },
    handler: async ({ caller, agent, params }) =>
      deleteSession({
        db: db(),
        runtime: durableRuntime(),
        agentId: agent.id,
        sessionId: params.id,
        principal: caller.principal,
      }),
  }),
  agentRoute({
    method: "POST",
    path: "/:slug/v1/session/:id/resume",
    name: "resumeSession",
    summary: "The owner continues the session from this client (new continuation token)",
    action: "sessions:write",
    params: { id },
    response: { json: sessions.sessionResumedSchema },
    handler: async ({ caller, agent, params }) =>
      resumeSession({ db: db(), agentId: agent.id, sessionId: params.id, principal: caller.principal }),
  }),
  agentRoute({
    method: "POST",
    path: "/:slug/v1/session/:id/stop",
    name: "stopSession",
    summary: "Interrupt the running turn without sending a message",
    action: "sessions:write",
    params: { id },
    response: { json: sessions.sessionStoppedSchema },
    handler: async ({ caller, agent, params }) =>
      stopSession({
        db: db(),
        runtime: durableRuntime(),
        agentId: agent.id,
        sessionId: params.id,
        principal: caller.principal,
      }),
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/session/:id/stream",
    name: "streamSession",
    summary: "NDJSON: the session's events from startIndex, then live",
    action: "sessions:read",
    params: { id },
    query: z.object({ startIndex: sessions.startIndexSchema, heartbeat: z.enum(["0", "1"]).optional() }),
    response: { ndjson: streamLineSchema },
    isHot: true,
    handler: async ({ request, caller, agent, params, query }) => {
      const sessionId = params.id;
      // One statement checks the session (404, 403) and reads the log's first page.
      const stream = await openSessionStream({
        db: db(),
        hub: await eventHub(),
        agentId: agent.id,
        sessionId,
        check: (session) => readableOrThrow({ session, caller, agent, sessionId }),
        // A revoked token (or a reader who lost the right) ends an open stream within the
        // credential cache's bound, as it would refuse a new request.
        recheck: {
          everyMs: credentialMaxAgeMs,
          check: async (session) =>
            readableOrThrow({
              session,
              caller: await reauthorize(request, params.slug, "sessions:read"),
              agent,
              sessionId,
            }),
        },
        startIndex: query.startIndex,
        heartbeatMs: query.heartbeat === "0" ? 0 : 15_000,
        endAfter: (session) =>
          session.mode === "task"
            ? (event) => event.type === "session.completed" || event.type === "session.failed"
            : undefined,
      });
      return new Response(stream, { headers: ndjsonHeaders });
    },
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/session/:id/events",
    name: "readSessionEvents",
    summary: "One-time NDJSON dump of the session's log (trace)",
    action: "sessions:read",
    params: { id },
    query: z.object({
      startIndex: sessions.startIndexSchema,
      limit: queryInteger({ min: 1, max: 10_000, default: 10_000 }),
    }),
    response: { ndjson: streamLineSchema },
    handler: async ({ caller, agent, params, query }) => {
      await getReadableSession({ db: db(), agent, sessionId: params.id, caller });
      const events = await readEvents({
        db: db(),
        sessionId: params.id,
        fromIndex: query.startIndex,
        limit: query.limit,
      });
      return new Response(Buffer.concat(events.map(ndjsonLine)), { headers: ndjsonHeaders });
    },
  }),
  agentRoute({
    method: "GET",
    path: "/:slug/v1/session/:id/reminders",
    name: "listReminders",
    summary: "The session's pending reminders, soonest first",
    action: "sessions:read",
    params: { id },
    response: { json: reminderListSchema },
    handler: async ({ caller, agent, params }) => {
      await getReadableSession({ db: db(), agent, sessionId: params.id, caller });
      return { ok: true, reminders: await listReminders(db(), params.id) };
    },
  }),
  agentRoute({
    method: "DELETE",
    path: "/:slug/v1/session/:id/reminders/:name",
    name: "cancelReminder",
    summary: "Cancel a pending reminder",
    action: "sessions:write",
    params: { id, name: pathNameSchema },
    response: { json: reminderCancelledSchema },
    handler: async ({ caller, agent, params }) => {
      await getOwnedSession({ db: db(), agentId: agent.id, sessionId: params.id, principal: caller.principal });
      if (!(await cancelReminder(db(), params.id, params.name)))
        throw new AppError("not_found", `no pending reminder ${params.name}`);
      return { ok: true, id: params.name, cancelled: true };
    },
  }),
  agentRoute({
    method: "POST",
    path: "/:slug/v1/session/:id/approvals/:callId",
    name: "decideApproval",
    summary: "Approve or deny a parked tool call",
    // The owner decides with sessions rights, a teammate with approvals:write alone
    // (docs/api.md); decideApproval tells them apart.
    action: ["sessions:read", "approvals:write"],
    params: { id, callId: callIdSchema },
    body: decideApprovalBodySchema,
    response: { json: approvalDecidedSchema },
    handler: async ({ caller, agent, params, body }) =>
      decideApproval({
        db: db(),
        runtime: durableRuntime(),
        agent,
        sessionId: params.id,
        callId: params.callId,
        caller,
        body,
      }),
  }),
  agentRoute({
    method: "POST",
    path: "/:slug/v1/session/:id/tools/:name",
    name: "callSessionTool",
    summary: "Call a tool against a session (409 session_busy for a write during a turn)",
    action: "tools:call",
    params: { id, name: pathNameSchema },
    body: directCallBodySchema,
    response: { json: directCallResultSchema },
    handler: async ({ caller, agent, params, body }) =>
      callTool({
        db: db(),
        runtime: durableRuntime(),
        agent,
        caller,
        toolName: params.name,
        body,
        sessionId: params.id,
      }),
  }),
];
