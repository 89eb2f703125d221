// GET /<slug>/v1/session/:id/eval-draft as a client meets it, on real Postgres: the owner gets the
// draft of their session's stored log; anyone else gets what reading that session would give
// them (403 for a teammate's chat, even an admin; 404 for no such session), and a session with no
// message yet has nothing to replay.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as draftRoute from "@/app/[slug]/v1/session/[id]/eval-draft/route";
import { authSecret, env } from "@/env";
import { processCredentialCache } from "@/server/auth/credential-cache";
import { createDb } from "@/server/db";
import { appendEvents } from "@/server/events/append-events";
import { createTestAgent, testManifest } from "@/testing/fixtures";

const databaseUrl = inject("databaseUrl");
// The route handlers read their configuration from the environment on first use.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-draft-"));
process.env.DATABASE_URL = databaseUrl;
process.env.AGENTFOLD_DATA_DIR = dataDir;
process.env.RESTATE_INGRESS_URL = inject("restateIngressUrl");
process.env.RESTATE_ADMIN_URL = inject("restateAdminUrl");
const db = createDb(databaseUrl);

const sessionIdOf = () => `ses_${crypto.randomUUID().replace(/-/g, "")}`;
let slug = "";
let cookies: Record<"admin" | "member", string>;
let chatId = "";
let emptyId = "";

beforeAll(async () => {
  const { team, agent, version } = await createTestAgent(db);
  slug = agent.slug;
  // The active version already has an eval of the name the draft would take.
  const evals = [{ id: "order-status", file: "evals/order-status.eval.ts", cases: ["order-status"] }];
  await db.agentVersion.update({ where: { id: version.id }, data: { manifest: testManifest({ evals }) } });
  const person = async (role: "admin" | "member") => {
    const user = await db.user.create({ data: { email: `${role}-${crypto.randomUUID().slice(0, 8)}@example.test` } });
    await db.membership.create({ data: { teamId: team.id, userId: user.id, role } });
    return user.id;
  };
  const cookie = async (userId: string) =>
    `next-auth.session-token=${await encode({ token: { sub: userId }, secret: authSecret(env()) })}`;
  const memberId = await person("member");
  cookies = { admin: await cookie(await person("admin")), member: await cookie(memberId) };
  const session = async (id: string) =>
    db.session.create({
      data: { id, agentId: agent.id, agentVersionId: version.id, ownerKind: "user", ownerId: memberId, mode: "chat" },
    });
  chatId = sessionIdOf();
  await session(chatId);
  await db.session.update({ where: { id: chatId }, data: { title: "Order status" } });
  await appendEvents({
    db,
    sessionId: chatId,
    events: [
      { type: "session.started", data: { channelId: "http", mode: "chat", purpose: "live" } },
      { type: "message.received", turnId: "turn_1", data: { text: "Where is A-1001?" } },
      {
        type: "actions.requested",
        turnId: "turn_1",
        data: { calls: [{ callId: "c1", toolName: "lookup_order", args: { orderId: "A-1001" } }] },
      },
      { type: "message.completed", turnId: "turn_1", data: { text: "It shipped yesterday." } },
      { type: "turn.completed", turnId: "turn_1", data: {} },
    ],
  });
  emptyId = sessionIdOf();
  await session(emptyId);
});

afterAll(async () => {
  await (await processCredentialCache(databaseUrl)).close();
  await db.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function draftOf(sessionId: string, cookie: string) {
  const request = new Request(`http://127.0.0.1:3000/${slug}/v1/session/${sessionId}/eval-draft`, {
    headers: { cookie },
  });
  const response = await draftRoute.GET(request, { params: Promise.resolve({ slug, id: sessionId }) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the eval draft of a session", () => {
  it("is its owner's: the stored log as an eval that replays and checks it, named beside the others", async () => {
    const { status, body } = await draftOf(chatId, cookies.member);
    expect(status).toBe(200);
    expect(body.path).toBe(`evals/order-status-${chatId.slice(4, 12)}.eval.ts`);
    const source = String(body.source);
    expect(source).toContain('await t.send("Where is A-1001?");');
    expect(source).toContain('t.calledTool("lookup_order");');
    expect(source).toContain('t.check(t.reply, includes("It shipped yesterday."));');
  });

  it("is refused to whoever may not read the session, as the session itself is", async () => {
    expect((await draftOf(chatId, cookies.admin)).status).toBe(403);
    expect(await draftOf(sessionIdOf(), cookies.member)).toMatchObject({ status: 404, body: { error: "not_found" } });
  });

  it("says there is nothing to replay before the first message", async () => {
    expect(await draftOf(emptyId, cookies.member)).toMatchObject({ status: 409, body: { error: "conflict" } });
  });
});
