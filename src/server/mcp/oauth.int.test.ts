// OAuth MCP connections end to end, short of a browser (e2e covers the click): a chat turn on an
// `oauth: true` connection parks with connection.auth_requested; the provider's page is answered
// as a person would (its Allow form); the callback's completion stores the tokens encrypted and
// wakes the turn, which then calls the server's tool. A turn nobody can answer fails at once with
// Reconnect <name>; a callback with an unknown state is refused; a new URL starts over.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { env } from "@/env";
import type { SessionEvent } from "@/agents/sdk/events";
import { AppError } from "@/server/errors";
import { readOrCreateSecretKey } from "@/server/secrets/secret-key";
import { startOAuthMcpServer, type OAuthMcpServer } from "@/testing/mcp/oauth-mcp-server";
import { has, ofType, startTurnHarness, type Harness } from "@/testing/turn-harness";
import { finishAuthorization, mcpOAuthCallbackUrl } from "./finish-authorization";
import { disconnectConnection, listConnectionStates } from "./connection-states";
import { mcpOAuthProvider } from "./oauth-store";

let h: Harness;
let provider: OAuthMcpServer;

beforeAll(async () => {
  provider = await startOAuthMcpServer();
  h = await startTurnHarness({ databaseUrl: inject("databaseUrl"), mcpPrivateHosts: [provider.hostPort] });
}, 120_000);

afterAll(async () => {
  await h?.close();
  await provider?.close();
});

const agentFiles = (url: string) => ({
  "bot/instructions.md": "You use the CRM.",
  "bot/mcp-connections/crm.ts": `import { defineConnection } from "agentfold/connections";\nexport default defineConnection(${JSON.stringify({ url, oauth: true, advertiseTools: true })});\n`,
});

const deps = () => ({
  db: h.db,
  key: readOrCreateSecretKey(h.dataDir),
  callbackUrl: mcpOAuthCallbackUrl(env().publicUrl),
  reach: async () => ({ policy: { kind: "open" as const }, privateHosts: [provider.hostPort] }),
});

/** What a person does on the provider's page: press Allow; answers the callback's query. */
async function allow(authorizeUrl: string): Promise<{ code?: string; state?: string }> {
  const page = await (await fetch(authorizeUrl)).text();
  const form = new URLSearchParams(
    Array.from(page.matchAll(/name="(\w+)" value="([^"]*)"/g), (match) => [
      match[1]!,
      match[2]!.replace(/&quot;/g, '"'),
    ]),
  );
  const answer = await fetch(new URL("/authorize/allow", authorizeUrl), {
    method: "POST",
    body: form,
    redirect: "manual",
  });
  const back = new URL(answer.headers.get("location")!);
  return { code: back.searchParams.get("code") ?? undefined, state: back.searchParams.get("state") ?? undefined };
}

const finished = (log: SessionEvent[]) => log.some((e) => e.type === "session.waiting" || e.type === "turn.failed");

describe("OAuth MCP connections", () => {
  it("park a chat turn until someone connects, then run it; tokens are stored encrypted", {
    timeout: 90_000,
  }, async () => {
    const agent = await h.deploy("oauth-crm", agentFiles(provider.url));
    const started = await h.start(agent, { message: "[call crm__whoami {}]" });
    const parked = await h.eventsUntil(started.sessionId, has("connection.auth_requested"));
    const [request] = ofType(parked, "connection.auth_requested");
    expect(request!.data.connection).toBe("crm");
    const authorizeUrl = new URL(request!.data.authorizeUrl);
    expect(authorizeUrl.origin).toBe(new URL(provider.url).origin);
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(Date.parse(request!.data.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);

    const answer = await allow(request!.data.authorizeUrl);
    expect(await finishAuthorization(deps(), answer)).toEqual({ slug: agent.slug, connection: "crm" });
    const log = await h.eventsUntil(started.sessionId, finished);
    expect(ofType(log, "connection.auth_resolved").map((e) => e.data)).toEqual([
      { connection: "crm", outcome: "connected" },
    ]);
    const [result] = ofType(log, "action.result");
    expect(result!.data).toMatchObject({ toolName: "crm__whoami", isError: false });
    expect(JSON.stringify(result!.data.output)).toMatch(/client /);

    // Kept for the agent, encrypted: no token the provider issued is in the row.
    const row = await h.db.mcpAuthorization.findUniqueOrThrow({
      where: { agentId_connection: { agentId: agent.id, connection: "crm" } },
    });
    expect(row.connectedAt).not.toBeNull();
    expect(row.state).toBeNull();
    const stored = Buffer.from(row.ciphertext).toString("latin1");
    for (const token of provider.issued()) expect(stored).not.toContain(token);
    // The next turn connects with what is kept, without asking anyone.
    const next = await h.start(agent, { message: "[call crm__whoami {}]" });
    const again = await h.eventsUntil(next.sessionId, finished);
    expect(ofType(again, "connection.auth_requested")).toEqual([]);
    expect(ofType(again, "action.result")[0]!.data.isError).toBe(false);

    // A single-use state: the same answer again is refused.
    await expect(finishAuthorization(deps(), answer)).rejects.toBeInstanceOf(AppError);
  });

  it("fail a turn nobody can answer with Reconnect <name>", { timeout: 60_000 }, async () => {
    const agent = await h.deploy("oauth-task", agentFiles(provider.url));
    const started = await h.start(agent, { message: "[call crm__whoami {}]" }, { mode: "task" });
    const log = await h.eventsUntil(started.sessionId, has("turn.failed"));
    expect(ofType(log, "connection.auth_requested")).toEqual([]);
    expect(ofType(log, "turn.failed")[0]!.data).toMatchObject({ code: "connection_failed" });
    expect(ofType(log, "turn.failed")[0]!.data.message).toMatch(/^Reconnect crm: /);
  });

  it("refuse a callback whose state nobody is waiting for, and start over for a new URL", async () => {
    await expect(finishAuthorization(deps(), { state: "made-up", code: "x" })).rejects.toMatchObject({
      code: "bad_request",
    });
    const agent = await h.db.agent.findFirstOrThrow({ where: { slug: { startsWith: "oauth-crm" } } });
    const target = { agentId: agent.id, slug: agent.slug, connection: "crm" };
    const same = await mcpOAuthProvider(deps(), { ...target, serverUrl: provider.url });
    expect(await same.tokens()).toBeDefined();
    const moved = await mcpOAuthProvider(deps(), { ...target, serverUrl: `${provider.url}/v2` });
    expect(await moved.tokens()).toBeUndefined();
  });

  it("list connections with their state, and Disconnect forgets the tokens", { timeout: 60_000 }, async () => {
    const agent = await h.db.agent.findFirstOrThrow({ where: { slug: { startsWith: "oauth-crm" } } });
    expect(await listConnectionStates(h.db, agent)).toEqual([
      expect.objectContaining({ name: "crm", form: "remote", target: provider.url, auth: "connected" }),
    ]);
    expect(await disconnectConnection(h.db, agent.id, "crm")).toEqual({ removed: true });
    expect((await listConnectionStates(h.db, agent))[0]!.auth).toBe("not_connected");
    await expect(disconnectConnection(h.db, agent.id, "crm")).rejects.toMatchObject({ code: "not_found" });
    // The next chat turn asks someone to connect again.
    const ref = { id: agent.id, slug: agent.slug, teamId: agent.teamId, activeVersionId: agent.activeVersionId };
    const started = await h.start(ref, { message: "[call crm__whoami {}]" });
    await h.eventsUntil(started.sessionId, has("connection.auth_requested"));
    await h.stop(ref, started.sessionId);
    const log = await h.eventsUntil(started.sessionId, has("connection.auth_resolved"));
    expect(ofType(log, "connection.auth_resolved")[0]!.data.outcome).toBe("cancelled");
  });
});
