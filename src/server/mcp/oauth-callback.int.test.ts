// The OAuth pieces over real HTTP, without a turn (oauth.int.test.ts has the parked turn): the
// SDK's client with our provider against the local OAuth 2.1 server, a person's Allow answered by
// the platform's own GET /v1/mcp-oauth/callback route, which stores the tokens encrypted and
// NOTIFYs mcp_authorized; a replayed or made-up state is a 400 page that changes nothing; the
// connection list and Disconnect routes; a moved public address registers the client anew.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { PrismaClient } from "@prisma/client";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { env, secretKey } from "@/env";
import { mcpAuthorizedChannel } from "@/server/channels";
import { createDb } from "@/server/db";
import { createToken } from "@/server/tokens/create-token";
import { createTestAgent, testManifest } from "@/testing/fixtures";
import { freshDatabaseUrl } from "@/testing/fresh-database";
import { startOAuthMcpServer, type OAuthMcpServer } from "@/testing/mcp/oauth-mcp-server";
import { startV1Server, type V1Server } from "@/testing/v1-server";
import { mcpOAuthCallbackUrl } from "./finish-authorization";
import { mcpOAuthProvider, type OAuthTarget } from "./oauth-store";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "agentfold-oauth-callback-"));
let db: PrismaClient;
let provider: OAuthMcpServer;
let web: V1Server;
let listener: pg.Client;
const notices: string[] = [];
let target: OAuthTarget;
let bearer = "";

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl(inject("databaseUrl"));
  db = createDb(databaseUrl);
  provider = await startOAuthMcpServer();
  web = await startV1Server();
  // The route handlers read these on first use: the callback lives under this server's address,
  // and its token request may reach the test provider on loopback.
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    AGENTFOLD_DATA_DIR: dataDir,
    AGENTFOLD_PUBLIC_URL: web.url,
    AGENTFOLD_MCP_PRIVATE_HOSTS: provider.hostPort,
  });
  const { team, agent, version } = await createTestAgent(db);
  const connection = { form: "remote", url: provider.url, oauth: true };
  await db.agentVersion.update({
    where: { id: version.id },
    data: {
      manifest: testManifest({ connections: [{ name: "crm", file: "crm.ts", scope: "mcp", config: connection }] }),
    },
  });
  target = { agentId: agent.id, slug: agent.slug, connection: "crm", serverUrl: provider.url };
  bearer = `Bearer ${(await createToken({ db, teamId: team.id, name: "oauth", actions: ["*"] })).token}`;
  listener = new pg.Client({ connectionString: databaseUrl });
  await listener.connect();
  listener.on("notification", (message) => notices.push(message.payload ?? ""));
  await listener.query(`LISTEN ${mcpAuthorizedChannel.name}`);
}, 120_000);

afterAll(async () => {
  await listener?.end();
  await web?.close();
  await provider?.close();
  await db?.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The provider for the target, as the worker builds it (same key, same callback). */
const providerFor = (changes: { callbackUrl?: string } = {}) =>
  mcpOAuthProvider(
    { db, key: secretKey(env()), callbackUrl: changes.callbackUrl ?? mcpOAuthCallbackUrl(env().publicUrl) },
    target,
  );

/** A person on the provider's page pressing Allow: where the provider sends the browser back. */
async function allow(authorizeUrl: URL): Promise<string> {
  const page = await (await fetch(authorizeUrl)).text();
  const form = new URLSearchParams(
    Array.from(page.matchAll(/name="(\w+)" value="([^"]*)"/g), (m) => [m[1]!, m[2]!.replace(/&quot;/g, '"')]),
  );
  const answer = await fetch(new URL("/authorize/allow", authorizeUrl), {
    method: "POST",
    body: form,
    redirect: "manual",
  });
  return answer.headers.get("location")!;
}

async function connectClient(): Promise<Client> {
  const client = new Client({ name: "oauth-callback-test", version: "1.0.0" });
  const authProvider = await providerFor();
  await client.connect(new StreamableHTTPClientTransport(new URL(provider.url), { authProvider }));
  return client;
}

const row = () =>
  db.mcpAuthorization.findUnique({ where: { agentId_connection: { agentId: target.agentId, connection: "crm" } } });

const api = (method: string, route: string) =>
  fetch(`${web.url}/${target.slug}/v1${route}`, { method, headers: { authorization: bearer } });

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe("the MCP OAuth callback over HTTP", () => {
  let callback = "";

  it("connects: 401 gives the provider's page, the callback stores tokens encrypted and NOTIFYs", async () => {
    const authProvider = await providerFor();
    const first = new Client({ name: "oauth-callback-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(provider.url), { authProvider });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizeUrl = authProvider.pendingAuthorization()!;
    expect(authorizeUrl.origin).toBe(new URL(provider.url).origin);
    expect(authorizeUrl.searchParams.get("redirect_uri")).toBe(`${web.url}/v1/mcp-oauth/callback`);
    expect((await row())?.state).toBe(authorizeUrl.searchParams.get("state"));

    callback = await allow(authorizeUrl);
    expect(callback.startsWith(`${web.url}/v1/mcp-oauth/callback?`)).toBe(true);
    const page = await fetch(callback);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain("Connected crm");
    await until(() => notices.length > 0);
    expect(notices.map((payload) => mcpAuthorizedChannel.decode(payload))).toEqual([
      { agentId: target.agentId, connection: "crm" },
    ]);

    const stored = (await row())!;
    expect(stored.state).toBeNull();
    expect(stored.connectedAt).not.toBeNull();
    const raw = Buffer.concat([stored.iv, stored.tag, stored.ciphertext].map((bytes) => Buffer.from(bytes)));
    expect(provider.issued().length).toBeGreaterThan(0);
    for (const token of provider.issued()) expect(raw.includes(Buffer.from(token))).toBe(false);

    const client = await connectClient();
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(JSON.stringify(result.content)).toMatch(/client /);
    await client.close();
  });

  it("refuses a replayed or made-up state with a 400 page, storing nothing", async () => {
    const before = await row();
    for (const query of [
      new URL(callback).search,
      `?state=${crypto.randomBytes(24).toString("base64url")}&code=x`,
      "?code=x",
      "?error=access_denied",
    ]) {
      const page = await fetch(`${web.url}/v1/mcp-oauth/callback${query}`);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain("Not connected");
    }
    expect(await row()).toEqual(before);
    expect(notices).toHaveLength(1);
  });

  it("counts a registration made for another callback address as none", async () => {
    const moved = await providerFor({ callbackUrl: "https://agents.example.com/v1/mcp-oauth/callback" });
    expect(await moved.clientInformation()).toBeUndefined();
    expect(await moved.tokens()).toBeDefined();
    expect(await (await providerFor()).clientInformation()).toMatchObject({ client_id: expect.any(String) });
  });

  it("lists the connection as connected, and Disconnect forgets it", async () => {
    const listed = async () => (await (await api("GET", "/connections")).json()) as { connections: unknown[] };
    expect((await listed()).connections).toEqual([
      expect.objectContaining({ name: "crm", form: "remote", target: provider.url, auth: "connected" }),
    ]);
    expect((await api("DELETE", "/connections/crm/authorization")).status).toBe(200);
    expect((await listed()).connections).toEqual([expect.objectContaining({ name: "crm", auth: "not_connected" })]);
    expect(await row()).toBeNull();
    expect((await api("DELETE", "/connections/crm/authorization")).status).toBe(404);
    const client = new Client({ name: "oauth-callback-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(provider.url), { authProvider: await providerFor() });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("answers a 400 page when the provider refuses the code, and the link still works", async () => {
    const authProvider = await providerFor();
    const client = new Client({ name: "oauth-callback-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(provider.url), { authProvider });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const state = authProvider.pendingAuthorization()!.searchParams.get("state")!;
    const page = await fetch(`${web.url}/v1/mcp-oauth/callback?state=${state}&code=not-a-code`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("Not connected");
    expect((await row())?.connectedAt).toBeNull();
    expect(await (await providerFor()).tokens()).toBeUndefined();
    expect(notices).toHaveLength(1);
    // The same Connect link still works: the state waits for a good answer.
    expect((await fetch(await allow(authProvider.pendingAuthorization()!))).status).toBe(200);
    expect((await row())?.connectedAt).not.toBeNull();
  });
});
