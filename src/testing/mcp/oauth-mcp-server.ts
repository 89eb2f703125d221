// An OAuth 2.1 authorization server and the MCP server it protects, for tests, on 127.0.0.1:
// authorization-server and protected-resource metadata, dynamic client registration, an
// /authorize page with an Allow button (a person clicks it; tests submit its form), PKCE (S256)
// checked at /token, refresh tokens, and an MCP server (the SDK's) whose `whoami` tool answers
// only bearer tokens this server issued; anything else gets 401 with the resource metadata URL.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export type OAuthMcpServer = {
  url: string;
  hostPort: string;
  /** Access tokens issued so far. */
  issued: () => string[];
  close: () => Promise<void>;
};

type Code = { clientId: string; redirectUri: string; challenge: string; state: string };

const random = () => crypto.randomBytes(18).toString("base64url");

async function readBody(request: http.IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

export async function startOAuthMcpServer(options: { port?: number } = {}): Promise<OAuthMcpServer> {
  const clients = new Map<string, { redirect_uris: string[] }>();
  const codes = new Map<string, Code>();
  const tokens = new Map<string, string>(); // access token → client id
  const refreshTokens = new Map<string, string>();
  let base = "";

  const send = (response: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) =>
    response
      .writeHead(status, { "content-type": "application/json", "access-control-allow-origin": "*", ...headers })
      .end(JSON.stringify(body));

  const issue = (clientId: string) => {
    const access = random();
    const refresh = random();
    tokens.set(access, clientId);
    refreshTokens.set(refresh, clientId);
    return { access_token: access, token_type: "Bearer", expires_in: 3600, refresh_token: refresh };
  };

  const httpServer = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", base);
    const path = url.pathname;
    if (path.startsWith("/.well-known/oauth-protected-resource"))
      return send(response, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    if (path === "/.well-known/oauth-authorization-server")
      return send(response, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    if (path === "/register" && request.method === "POST") {
      const metadata = JSON.parse(await readBody(request)) as { redirect_uris: string[] };
      const clientId = random();
      clients.set(clientId, metadata);
      return send(response, 201, {
        ...metadata,
        client_id: clientId,
        client_id_issued_at: Math.floor(Date.now() / 1000),
      });
    }
    if (path === "/authorize" && request.method === "GET") {
      const q = url.searchParams;
      const client = clients.get(q.get("client_id") ?? "");
      if (!client?.redirect_uris.includes(q.get("redirect_uri") ?? ""))
        return send(response, 400, { error: "invalid_request" });
      if (q.get("code_challenge_method") !== "S256") return send(response, 400, { error: "invalid_request" });
      const hidden = ["client_id", "redirect_uri", "code_challenge", "state"]
        .map((name) => `<input type="hidden" name="${name}" value="${(q.get(name) ?? "").replace(/"/g, "&quot;")}">`)
        .join("");
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><title>Test provider</title><h1>Let Agentfold use the test CRM?</h1><form method="post" action="/authorize/allow">${hidden}<button type="submit">Allow</button></form>`,
        );
      return;
    }
    if (path === "/authorize/allow" && request.method === "POST") {
      const form = new URLSearchParams(await readBody(request));
      const code = random();
      codes.set(code, {
        clientId: form.get("client_id") ?? "",
        redirectUri: form.get("redirect_uri") ?? "",
        challenge: form.get("code_challenge") ?? "",
        state: form.get("state") ?? "",
      });
      const back = new URL(form.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", form.get("state") ?? "");
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (path === "/token" && request.method === "POST") {
      const form = new URLSearchParams(await readBody(request));
      if (form.get("grant_type") === "refresh_token") {
        const clientId = refreshTokens.get(form.get("refresh_token") ?? "");
        return clientId ? send(response, 200, issue(clientId)) : send(response, 400, { error: "invalid_grant" });
      }
      const code = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = crypto.createHash("sha256").update(verifier).digest("base64url");
      if (!code || code.redirectUri !== form.get("redirect_uri") || code.challenge !== challenge)
        return send(response, 400, { error: "invalid_grant" });
      return send(response, 200, issue(code.clientId));
    }
    if (path === "/mcp") {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      if (!token || !tokens.has(token))
        return send(
          response,
          401,
          { error: "invalid_token" },
          {
            "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`,
          },
        );
      const server = new McpServer({ name: "test-oauth", version: "1.0.0" });
      server.registerTool("whoami", { description: "Who the token belongs to" }, async () => ({
        content: [{ type: "text", text: `client ${tokens.get(token)}` }],
      }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      response.on("close", () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      await transport.handleRequest(request, response);
      return;
    }
    send(response, 404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => httpServer.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/mcp`,
    hostPort: `127.0.0.1:${port}`,
    issued: () => [...tokens.keys()],
    close: () =>
      new Promise((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
