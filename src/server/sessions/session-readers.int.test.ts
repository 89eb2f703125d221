// Who reads a session, as clients meet it: the /v1 session routes called with real requests
// (tokens, the dashboard cookie) on real Postgres. A schedule's task session is readable by the
// team's admins and owners and by the tokens they made with sessions:read; nobody else, and
// nobody but its owner changes it. The stream as a client sees it over HTTP (through the API
// front): headers at once when resumed at the end of the log, and its end once its token is
// revoked. A token with approvals:write alone decides approvals.
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as approvalRoute from "@/app/[slug]/v1/session/[id]/approvals/[callId]/route";
import * as eventsRoute from "@/app/[slug]/v1/session/[id]/events/route";
import * as remindersRoute from "@/app/[slug]/v1/session/[id]/reminders/route";
import * as sessionRoute from "@/app/[slug]/v1/session/[id]/route";
import * as stopRoute from "@/app/[slug]/v1/session/[id]/stop/route";
import * as streamRoute from "@/app/[slug]/v1/session/[id]/stream/route";
import * as sessionsRoute from "@/app/[slug]/v1/session/route";
import { sessionEventSchema } from "@/agents/sdk/events";
import { projectRoot } from "@/cli/start/project";
import { authSecret, env } from "@/env";
import { processCredentialCache } from "@/server/auth/credential-cache";
import { createDb } from "@/server/db";
import { appendEvents } from "@/server/events/append-events";
import { createApiFront } from "@/server/web/api-front";
import { parseNdjson } from "@/server/http/ndjson";
import { scheduleAuth } from "@/server/schedules/run-schedules";
import { createToken } from "@/server/tokens/create-token";
import { hashToken } from "@/server/tokens/token-secret";
import { createTestAgent } from "@/testing/fixtures";

const databaseUrl = inject("databaseUrl");
// The route handlers read their configuration from the environment on first use.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-readers-"));
process.env.DATABASE_URL = databaseUrl;
process.env.AGENTFOLD_DATA_DIR = dataDir;
process.env.RESTATE_INGRESS_URL = inject("restateIngressUrl");
process.env.RESTATE_ADMIN_URL = inject("restateAdminUrl");
const db = createDb(databaseUrl);

let slug = "";
let taskId = "";
let chatId = "";
let cookies: Record<"admin" | "member", string>;
let tokens: Record<"headless" | "byAdmin" | "byMember" | "agentsOnly" | "approver" | "owner", string>;
let server: http.Server;
let baseUrl = "";

const sessionIdOf = () => `ses_${crypto.randomUUID().replace(/-/g, "")}`;

beforeAll(async () => {
  const { team, agent, version } = await createTestAgent(db);
  slug = agent.slug;
  const person = async (role: "admin" | "member") => {
    const user = await db.user.create({ data: { email: `${role}-${crypto.randomUUID().slice(0, 8)}@example.test` } });
    await db.membership.create({ data: { teamId: team.id, userId: user.id, role } });
    return user.id;
  };
  const adminId = await person("admin");
  const memberId = await person("member");
  const cookie = async (userId: string) =>
    `next-auth.session-token=${await encode({ token: { sub: userId }, secret: authSecret(env()) })}`;
  cookies = { admin: await cookie(adminId), member: await cookie(memberId) };
  const token = async (actions: string[], createdById?: string) =>
    (await createToken({ db, teamId: team.id, name: "t", actions, agentSlugs: [slug], createdById })).token;
  tokens = {
    headless: await token(["sessions:read"]),
    byAdmin: await token(["sessions:read"], adminId),
    byMember: await token(["sessions:read", "sessions:write"], memberId),
    agentsOnly: await token(["agents:read"]),
    approver: await token(["approvals:write"]),
    owner: await token(["sessions:read", "sessions:write"]),
  };
  // A schedule's run, finished; and a member's own chat.
  const schedule = scheduleAuth(slug, "digest");
  const session = (id: string, mode: "task" | "chat", ownerKind: string, ownerId: string) =>
    db.session.create({
      data: { id, agentId: agent.id, agentVersionId: version.id, ownerKind, ownerId, mode, title: `${mode} session` },
    });
  taskId = sessionIdOf();
  await session(taskId, "task", schedule.kind, schedule.id);
  await appendEvents({
    db,
    sessionId: taskId,
    events: [
      { type: "session.started", data: { channelId: "schedule", mode: "task", purpose: "live" } },
      { type: "message.appended", data: { delta: "Today's digest" } },
      { type: "session.completed", data: {} },
    ],
  });
  chatId = sessionIdOf();
  await session(chatId, "chat", "user", memberId);
  server = http.createServer((req, res) => {
    if (!createApiFront({ appDir: path.join(projectRoot, "src", "app") }).serve(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await (await processCredentialCache(databaseUrl)).close();
  await db.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type As = { token?: string; cookie?: string };
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(
  handler: Handler,
  method: string,
  suffix: string,
  params: Record<string, string>,
  as: As,
  body?: unknown,
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (as.token) headers.authorization = `Bearer ${as.token}`;
  if (as.cookie) headers.cookie = as.cookie;
  const request = new Request(`http://127.0.0.1:3000/${slug}/v1/session${suffix}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const response = await handler(request, { params: Promise.resolve({ slug, ...params }) });
  return { status: response.status, text: await response.text() };
}

const readers = () => ({
  "the headless token": { token: tokens.headless },
  "an admin's token": { token: tokens.byAdmin },
  "a signed-in admin": { cookie: cookies.admin },
});
const strangers = () => ({
  "a member's token": { token: tokens.byMember },
  "a signed-in member": { cookie: cookies.member },
});

describe("a schedule's task session", () => {
  it("is inspected and replayed by the team's admins and the tokens they made", async () => {
    for (const [who, as] of Object.entries(readers())) {
      const got = await call(sessionRoute.GET as Handler, "GET", `/${taskId}`, { id: taskId }, as);
      expect(got.status, who).toBe(200);
      expect(JSON.parse(got.text).session).toMatchObject({ id: taskId, mode: "task", eventCount: 3 });
      const events = await call(eventsRoute.GET as Handler, "GET", `/${taskId}/events`, { id: taskId }, as);
      expect(
        events.text
          .trim()
          .split("\n")
          .map((line) => sessionEventSchema.parse(JSON.parse(line)).type),
        who,
      ).toEqual(["session.started", "message.appended", "session.completed"]);
      // The stream replays the finished run and ends after its final event.
      const stream = await call(streamRoute.GET as Handler, "GET", `/${taskId}/stream?heartbeat=0`, { id: taskId }, as);
      expect(
        stream.text
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line).index),
        who,
      ).toEqual([0, 1, 2]);
      const listed = JSON.parse((await call(sessionsRoute.GET as Handler, "GET", "?mode=task", {}, as)).text);
      expect(
        listed.sessions.map((s: { id: string }) => s.id),
        who,
      ).toEqual([taskId]);
      const reminders = await call(remindersRoute.GET as Handler, "GET", `/${taskId}/reminders`, { id: taskId }, as);
      expect([reminders.status, JSON.parse(reminders.text).reminders], who).toEqual([200, []]);
    }
  });

  it("is refused to members, their tokens and tokens without sessions:read, and listed for none of them", async () => {
    for (const [who, as] of Object.entries({
      ...strangers(),
      "a token without sessions:read": { token: tokens.agentsOnly },
    })) {
      for (const [handler, suffix] of [
        [sessionRoute.GET, ""],
        [eventsRoute.GET, "/events"],
        [streamRoute.GET, "/stream"],
        [remindersRoute.GET, "/reminders"],
      ] as const) {
        expect(
          (await call(handler as Handler, "GET", `/${taskId}${suffix}`, { id: taskId }, as)).status,
          `${who} ${suffix}`,
        ).toBe(403);
      }
    }
    for (const [who, as] of Object.entries(strangers())) {
      const listed = JSON.parse((await call(sessionsRoute.GET as Handler, "GET", "", {}, as)).text);
      expect(
        listed.sessions.map((s: { id: string }) => s.id),
        who,
      ).not.toContain(taskId);
    }
  });

  it("stays read-only for its readers, and another person's chat stays private", async () => {
    for (const [who, as] of Object.entries(readers())) {
      expect((await call(stopRoute.POST as Handler, "POST", `/${taskId}/stop`, { id: taskId }, as)).status, who).toBe(
        403,
      );
      expect((await call(sessionRoute.DELETE as Handler, "DELETE", `/${taskId}`, { id: taskId }, as)).status, who).toBe(
        403,
      );
      expect((await call(sessionRoute.GET as Handler, "GET", `/${chatId}`, { id: chatId }, as)).status, who).toBe(403);
    }
    expect(await db.session.count({ where: { id: taskId } })).toBe(1);
  });
});

describe("approvals", () => {
  it("are decided by a token with approvals:write alone", async () => {
    const callId = `call_${crypto.randomUUID().slice(0, 8)}`;
    await db.approval.create({
      data: {
        sessionId: chatId,
        turnId: "turn_x",
        callId,
        toolName: "issue_refund",
        args: {},
        requestedBy: {},
        awakeableId: "prom_1none",
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const decided = await call(
      approvalRoute.POST as Handler,
      "POST",
      `/${chatId}/approvals/${callId}`,
      { id: chatId, callId },
      { token: tokens.approver },
      { decision: "deny", reason: "not today" },
    );
    expect(decided.status).toBe(200);
    expect(JSON.parse(decided.text)).toMatchObject({ ok: true, callId, decision: "denied" });
    expect(
      (await db.approval.findUniqueOrThrow({ where: { sessionId_callId: { sessionId: chatId, callId } } })).status,
    ).toBe("denied");
    // Neither sessions nor approvals rights: refused before anything is read.
    expect(
      (
        await call(
          approvalRoute.POST as Handler,
          "POST",
          `/${chatId}/approvals/${callId}`,
          { id: chatId, callId },
          { token: tokens.agentsOnly },
          { decision: "approve" },
        )
      ).status,
    ).toBe(403);
  });
});

describe("an open stream over HTTP", () => {
  /** Opens the stream with `token`; resolves when the response's headers have arrived. */
  const open = (sessionId: string, token: string, startIndex: number) =>
    fetch(`${baseUrl}/${slug}/v1/session/${sessionId}/stream?startIndex=${startIndex}`, {
      headers: { authorization: `Bearer ${token}` },
    });

  it("sends its headers at once when resumed at the end of the log, then follows it", async () => {
    const sessionId = sessionIdOf();
    const agent = await db.agent.findUniqueOrThrow({ where: { slug }, select: { id: true, activeVersionId: true } });
    await db.session.create({
      data: {
        id: sessionId,
        agentId: agent.id,
        agentVersionId: agent.activeVersionId!,
        ownerKind: "app",
        ownerId: await tokenPrincipal(tokens.owner),
        mode: "chat",
      },
    });
    await appendEvents({ db, sessionId, events: [{ type: "message.appended", data: { delta: "a" } }] });
    const startedAt = Date.now();
    // Heartbeats come after 15 s of silence: headers that waited for a line would take that long.
    const response = await open(sessionId, tokens.owner, 1);
    expect(response.status).toBe(200);
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(response.headers.get("content-type")).toMatch(/ndjson/);
    await appendEvents({ db, sessionId, events: [{ type: "message.appended", data: { delta: "b" } }] });
    const lines = parseNdjson(response.body!);
    expect(((await lines.next()).value as { index: number }).index).toBe(1);
    await lines.return(undefined);
  });

  it("ends within the credential cache's bound after its token is revoked elsewhere", async () => {
    const token = (
      await createToken({
        db,
        teamId: (await db.agent.findUniqueOrThrow({ where: { slug } })).teamId,
        name: "revoked soon",
        actions: ["sessions:read"],
      })
    ).token;
    const agent = await db.agent.findUniqueOrThrow({ where: { slug }, select: { id: true, activeVersionId: true } });
    const sessionId = sessionIdOf();
    await db.session.create({
      data: {
        id: sessionId,
        agentId: agent.id,
        agentVersionId: agent.activeVersionId!,
        ownerKind: "app",
        ownerId: await tokenPrincipal(token),
        mode: "chat",
      },
    });
    const stream = await open(sessionId, token, 0);
    expect(stream.status).toBe(200);
    const lines = parseNdjson(stream.body!);
    const next = lines.next();
    // Another process revokes it: this one hears only the database's notice.
    const revokedAt = Date.now();
    await db.apiToken.updateMany({ where: { tokenHash: hashToken(token) }, data: { revokedAt: new Date() } });
    const line = (await next).value as { type: string; error: string; message: string };
    expect(line).toMatchObject({ type: "error", error: "unauthorized", message: "this token was revoked" });
    expect(Date.now() - revokedAt).toBeLessThan(5_000 + 1_500);
    expect((await lines.next()).done).toBe(true);
  }, 15_000);
});

/** The principal id a token's sessions are owned by. */
async function tokenPrincipal(token: string): Promise<string> {
  const row = await db.apiToken.findUniqueOrThrow({ where: { tokenHash: hashToken(token) }, select: { id: true } });
  return `token:${row.id}`;
}
