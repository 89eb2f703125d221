// OAuth for `oauth: true` remote MCP connections (docs/agent-folders.md, "MCP OAuth"), as the MCP
// SDK's client auth asks for it: an OAuthClientProvider per agent and connection whose client
// registration, tokens and PKCE verifier are kept in mcp_authorizations, encrypted with the
// secrets' cipher and bound to the agent and connection. What it keeps was made for one server
// URL: a connection whose URL changed finds nothing and starts over. We are a server, so asking
// for authorization does not redirect anyone: the URL is kept for the turn to show (Connect),
// with a fresh `state` the callback is matched by.
import crypto from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { PrismaClient } from "@prisma/client";
import { decryptSecret, encryptSecret } from "@/server/secrets/secret-cipher";
import type { OAuthProviders } from "./connection-pool";

type Kept = {
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  codeVerifier?: string;
};

export type OAuthTarget = { agentId: string; slug: string; connection: string; serverUrl: string };

export type McpOAuthProvider = OAuthClientProvider & {
  /** The provider's page the SDK asked to send someone to, if it did. */
  pendingAuthorization(): URL | undefined;
};

type Deps = { db: PrismaClient; key: Buffer; callbackUrl: string };

const binding = (target: { agentId: string; connection: string }) => ({
  agentId: target.agentId,
  name: `mcp-oauth:${target.connection}`,
});

async function readKept(deps: Deps, target: OAuthTarget): Promise<Kept> {
  const row = await deps.db.mcpAuthorization.findUnique({
    where: { agentId_connection: { agentId: target.agentId, connection: target.connection } },
  });
  if (!row || row.serverUrl !== target.serverUrl) return {};
  const encrypted = { iv: Buffer.from(row.iv), tag: Buffer.from(row.tag), ciphertext: Buffer.from(row.ciphertext) };
  const text = decryptSecret({ key: deps.key, ...binding(target), encrypted });
  return JSON.parse(text) as Kept;
}

async function writeKept(
  deps: Deps,
  target: OAuthTarget,
  kept: Kept,
  changes: { state?: string | null; connected?: boolean } = {},
): Promise<void> {
  const { iv, tag, ciphertext } = encryptSecret({ key: deps.key, ...binding(target), value: JSON.stringify(kept) });
  const fields = {
    serverUrl: target.serverUrl,
    iv: new Uint8Array(iv),
    tag: new Uint8Array(tag),
    ciphertext: new Uint8Array(ciphertext),
    ...(changes.state !== undefined ? { state: changes.state } : {}),
    ...(changes.connected ? { connectedAt: new Date() } : {}),
    updatedAt: new Date(),
  };
  await deps.db.mcpAuthorization.upsert({
    where: { agentId_connection: { agentId: target.agentId, connection: target.connection } },
    create: { agentId: target.agentId, connection: target.connection, ...fields },
    update: fields,
  });
}

const isForCallback = (client: OAuthClientInformationMixed | undefined, callbackUrl: string) =>
  !client || !("redirect_uris" in client) || client.redirect_uris.includes(callbackUrl);

export async function mcpOAuthProvider(deps: Deps, target: OAuthTarget): Promise<McpOAuthProvider> {
  let kept = await readKept(deps, target);
  let pending: URL | undefined;
  const save = (changes?: Parameters<typeof writeKept>[3]) => writeKept(deps, target, kept, changes);
  const clientMetadata: OAuthClientMetadata = {
    client_name: `Agentfold ${target.slug}`,
    redirect_uris: [deps.callbackUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  return {
    get redirectUrl() {
      return deps.callbackUrl;
    },
    get clientMetadata() {
      return clientMetadata;
    },
    async state() {
      const state = crypto.randomBytes(24).toString("base64url");
      await save({ state });
      return state;
    },
    // A registration made for another callback (the public address changed) would be refused at the
    // provider's page: counted as none, so the SDK registers again.
    clientInformation: () =>
      isForCallback(kept.clientInformation, deps.callbackUrl) ? kept.clientInformation : undefined,
    async saveClientInformation(clientInformation) {
      kept = { ...kept, clientInformation };
      await save();
    },
    tokens: () => kept.tokens,
    async saveTokens(tokens) {
      kept = { ...kept, tokens, codeVerifier: undefined };
      await save({ state: null, connected: true });
    },
    redirectToAuthorization(url) {
      pending = url;
    },
    async saveCodeVerifier(codeVerifier) {
      kept = { ...kept, codeVerifier };
      await save();
    },
    codeVerifier() {
      if (!kept.codeVerifier) throw new Error("no authorization of this connection was started");
      return kept.codeVerifier;
    },
    async invalidateCredentials(scope) {
      if (scope === "all" || scope === "client") kept = {};
      if (scope === "tokens") kept = { ...kept, tokens: undefined };
      if (scope === "verifier") kept = { ...kept, codeVerifier: undefined };
      await save();
    },
    pendingAuthorization: () => pending,
  };
}

/** The authorization a callback's `state` belongs to, if one is waiting for it. */
export async function findPendingAuthorization(
  db: PrismaClient,
  state: string,
): Promise<{ agentId: string; connection: string; serverUrl: string } | undefined> {
  const row = await db.mcpAuthorization.findUnique({
    where: { state },
    select: { agentId: true, connection: true, serverUrl: true },
  });
  return row ?? undefined;
}

/** The pool's OAuth side (connection-pool.ts): a provider for each connect of an oauth
 * connection, and when the agent's authorization for it was last connected. */
export function oauthProviders(deps: Deps): OAuthProviders {
  return {
    async provider(target, serverUrl) {
      const agent = await deps.db.agent.findUnique({ where: { id: target.agentId }, select: { slug: true } });
      return mcpOAuthProvider(deps, {
        agentId: target.agentId,
        slug: agent?.slug ?? target.agentId,
        connection: target.connection.name,
        serverUrl,
      });
    },
    async stamp(target) {
      const row = await deps.db.mcpAuthorization.findUnique({
        where: { agentId_connection: { agentId: target.agentId, connection: target.connection.name } },
        select: { connectedAt: true },
      });
      return row?.connectedAt?.toISOString() ?? "none";
    },
  };
}
