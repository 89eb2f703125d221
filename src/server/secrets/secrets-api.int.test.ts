// The secrets API as clients meet it: the /v1 route handlers called with real requests (bearer
// tokens, scopes, bad input) and the dashboard's tRPC procedures (team roles), on real Postgres.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as secretRoute from "@/app/[slug]/v1/secrets/[name]/route";
import * as secretsRoute from "@/app/[slug]/v1/secrets/route";
import { processCredentialCache } from "@/server/auth/credential-cache";
import { createDb } from "@/server/db";
import { createToken } from "@/server/tokens/create-token";
import type { Context } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";
import { createTestAgent, testManifest } from "@/testing/fixtures";

const databaseUrl = inject("databaseUrl");
// The route handlers read their configuration from the environment on first use.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-secrets-api-"));
process.env.DATABASE_URL = databaseUrl;
process.env.AGENTFOLD_DATA_DIR = dataDir;
const db = createDb(databaseUrl);

let slug = "";
let tokens: Record<"deploy" | "read" | "otherAgent" | "otherTeam", string>;

beforeAll(async () => {
  const { team, agent, version } = await createTestAgent(db);
  slug = agent.slug;
  await db.agentVersion.update({
    where: { id: version.id },
    data: { manifest: testManifest({ secretNames: ["API_KEY", "OTHER_TOKEN"] }) },
  });
  const other = await createTestAgent(db);
  const token = async (teamId: string, actions: string[], agentSlugs: string[] = []) =>
    (await createToken({ db, teamId, name: "ci", actions, agentSlugs })).token;
  tokens = {
    deploy: await token(team.id, ["agents:deploy"]),
    read: await token(team.id, ["agents:read", "sessions:write"]),
    otherAgent: await token(team.id, ["*"], [other.agent.slug]),
    otherTeam: await token(other.team.id, ["*"]),
  };
});
afterAll(async () => {
  await (await processCredentialCache(databaseUrl)).close();
  await db.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Call = { token?: string; body?: unknown; rawBody?: string; agent?: string };

async function call(method: "GET" | "PUT" | "DELETE", name: string | undefined, options: Call = {}) {
  const agent = options.agent ?? slug;
  const url = `http://127.0.0.1:3000/${agent}/v1/secrets${name === undefined ? "" : `/${encodeURIComponent(name)}`}`;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const request = new Request(url, { method, headers, body });
  const params = Promise.resolve(name === undefined ? { slug: agent } : { slug: agent, name });
  const handler = name === undefined ? secretsRoute.GET : method === "PUT" ? secretRoute.PUT : secretRoute.DELETE;
  const response = await handler(request, { params });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) };
}

describe("/<slug>/v1/secrets", () => {
  it("sets, rotates, lists and removes a secret, never answering with its value", async () => {
    const initial = await call("GET", undefined, { token: tokens.deploy });
    expect(initial).toMatchObject({
      status: 200,
      json: { ok: true, secrets: [], declared: ["API_KEY", "OTHER_TOKEN"], missing: ["API_KEY", "OTHER_TOKEN"] },
    });
    const set = await call("PUT", "API_KEY", { token: tokens.deploy, body: { value: "first-secret-value" } });
    expect(set).toMatchObject({ status: 200, json: { ok: true, name: "API_KEY", isNew: true } });
    const rotated = await call("PUT", "API_KEY", { token: tokens.deploy, body: { value: "second-secret-value" } });
    expect(rotated.json).toMatchObject({ ok: true, name: "API_KEY", isNew: false });
    const listed = await call("GET", undefined, { token: tokens.deploy });
    expect(listed.json).toEqual({
      ok: true,
      secrets: [{ name: "API_KEY", updatedAt: expect.any(String), updatedBy: "token ci", isDeclared: true }],
      declared: ["API_KEY", "OTHER_TOKEN"],
      missing: ["OTHER_TOKEN"],
    });
    for (const response of [set, rotated, listed]) expect(response.text).not.toMatch(/secret-value/);
    expect(await call("DELETE", "API_KEY", { token: tokens.deploy })).toMatchObject({
      status: 200,
      json: { ok: true, name: "API_KEY" },
    });
    expect(await call("DELETE", "API_KEY", { token: tokens.deploy })).toMatchObject({
      status: 404,
      json: { ok: false, error: "not_found" },
    });
    expect((await call("GET", undefined, { token: tokens.deploy })).json.missing).toEqual(["API_KEY", "OTHER_TOKEN"]);
  });

  it("needs a credential with agents:deploy on this agent", async () => {
    expect((await call("GET", undefined)).status).toBe(401);
    for (const token of [tokens.read, tokens.otherAgent, tokens.otherTeam]) {
      expect((await call("GET", undefined, { token })).status).toBe(403);
      expect((await call("PUT", "API_KEY", { token, body: { value: "sneaky-value" } })).status).toBe(403);
      expect((await call("DELETE", "API_KEY", { token })).status).toBe(403);
    }
    expect((await call("GET", undefined, { token: tokens.deploy })).json.secrets).toEqual([]);
  });

  it("answers 404 for an unknown agent", async () => {
    expect(await call("GET", undefined, { token: tokens.deploy, agent: "no-such-agent" })).toMatchObject({
      status: 404,
      json: { error: "not_found" },
    });
    expect(
      (await call("PUT", "API_KEY", { token: tokens.deploy, agent: "no-such-agent", body: { value: "v-value" } }))
        .status,
    ).toBe(404);
  });

  it("answers 400 for a bad name or value, without repeating the value", async () => {
    const put = (name: string, options: Call) => call("PUT", name, { token: tokens.deploy, ...options });
    const bad = [
      await put("1ABC", { body: { value: "value-one" } }),
      await put("MY-KEY", { body: { value: "value-one" } }),
      await put("API_KEY", { body: { value: "" } }),
      await put("API_KEY", { body: {} }),
      await put("API_KEY", { body: { value: 42 } }),
      await put("API_KEY", { body: { value: "value-one", extra: true } }),
      await put("API_KEY", { body: { value: "nul\0in-the-middle" } }),
      await put("API_KEY", { body: { value: "y".repeat(64 * 1024 + 1) } }),
      await put("API_KEY", { rawBody: "{not json" }),
    ];
    expect(bad.map((response) => response.status)).toEqual(bad.map(() => 400));
    for (const response of bad) expect(response.text).not.toMatch(/value-one|in-the-middle|yyyy/);
    expect((await call("DELETE", "1ABC", { token: tokens.deploy })).status).toBe(400);
    expect((await call("GET", undefined, { token: tokens.deploy })).json.secrets).toEqual([]);
  });
});

describe("the secrets tRPC procedures", () => {
  let teamSlug = "";
  let agentSlug = "";
  const users: Record<"admin" | "member", string> = { admin: "", member: "" };
  const trpc = (userId: string) =>
    appRouter.createCaller({ db, userId, isCrossSite: false, origin: "http://127.0.0.1:3000" } satisfies Context);

  beforeAll(async () => {
    const { team, agent, version } = await createTestAgent(db);
    teamSlug = team.slug;
    agentSlug = agent.slug;
    await db.agentVersion.update({
      where: { id: version.id },
      data: { manifest: testManifest({ secretNames: ["API_KEY"] }) },
    });
    for (const role of ["admin", "member"] as const) {
      const user = await db.user.create({ data: { email: `${role}-${crypto.randomUUID().slice(0, 8)}@example.test` } });
      await db.membership.create({ data: { teamId: team.id, userId: user.id, role } });
      users[role] = user.id;
    }
  });

  it("let an admin set, list and remove, and never return a value", async () => {
    const admin = trpc(users.admin);
    expect(await admin.secrets.list({ teamSlug, slug: agentSlug })).toEqual({
      secrets: [],
      declared: ["API_KEY"],
      missing: ["API_KEY"],
    });
    const set = await admin.secrets.set({ teamSlug, slug: agentSlug, name: "API_KEY", value: "dashboard-value" });
    expect(set).toMatchObject({ name: "API_KEY", isNew: true });
    const listed = await admin.secrets.list({ teamSlug, slug: agentSlug });
    expect(listed.missing).toEqual([]);
    expect(listed.secrets[0]?.updatedBy).toMatch(/^admin-.*@example.test$/);
    expect(JSON.stringify([set, listed])).not.toContain("dashboard-value");
    await expect(
      admin.secrets.set({ teamSlug, slug: agentSlug, name: "bad-name", value: "x-value" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      admin.secrets.set({ teamSlug, slug: "no-such-agent", name: "API_KEY", value: "x-value" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await admin.secrets.remove({ teamSlug, slug: agentSlug, name: "API_KEY" })).toEqual({ name: "API_KEY" });
  });

  it("refuse members below admin", async () => {
    const member = trpc(users.member);
    await expect(member.secrets.list({ teamSlug, slug: agentSlug })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      member.secrets.set({ teamSlug, slug: agentSlug, name: "API_KEY", value: "x-value" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
