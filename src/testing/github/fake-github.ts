// A fake GitHub REST API at the HTTP boundary, for tests that drive the real Octokit SDKs against
// it (GITHUB_API_URL / `githubApiUrl`): a GitHub App's installation tokens (the App's JWT checked
// as GitHub checks it: RS256, signed by the App's key, issued for its id, not expired), issue
// comments (created, edited), commit statuses, pull requests. Every call is recorded with its
// authorization; a call without a credential the fake issued or knows is 401. Loopback only.
import crypto, { type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeGitHubCall = { method: string; path: string; body: unknown; authorization?: string };
export type FakeGitHubComment = {
  id: number;
  owner: string;
  repo: string;
  number: number;
  body: string;
  edits: number;
};
export type FakeGitHubStatus = { owner: string; repo: string; sha: string; state: string; context: string };
export type FakeGitHubPull = { number: number; title: string; head: { sha: string; ref: string } };

export type FakeGitHub = {
  url: string;
  calls: FakeGitHubCall[];
  comments: FakeGitHubComment[];
  statuses: FakeGitHubStatus[];
  /** Installation tokens handed out, in order. */
  issuedTokens: string[];
  /** GET /repos/{owner}/{repo}/pulls/{number} answers this. */
  addPull(owner: string, repo: string, pull: FakeGitHubPull): void;
  close(): Promise<void>;
};

export async function startFakeGitHub(options: {
  /** The GitHub App whose JWTs the fake accepts, and where it is installed (`owner/repo` → id). */
  app?: { id: number; publicKey: KeyObject; installations: Record<string, number> };
  /** Personal access tokens the fake accepts. */
  tokens?: string[];
}): Promise<FakeGitHub> {
  const calls: FakeGitHubCall[] = [];
  const comments: FakeGitHubComment[] = [];
  const statuses: FakeGitHubStatus[] = [];
  const issuedTokens: string[] = [];
  const pulls = new Map<string, FakeGitHubPull>();
  let nextId = 1000;

  function answer(method: string, path: string, body: unknown, authorization?: string): [number, unknown] {
    const credential = /^(?:token|bearer) (\S+)$/i.exec(authorization ?? "")?.[1];
    const tokenFor = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
    const installationOn = /^\/repos\/([^/]+)\/([^/]+)\/installation$/.exec(path);
    if (tokenFor || installationOn) {
      const problem = jwtProblem(credential, options.app);
      if (problem) return [401, { message: `A JSON web token could not be decoded: ${problem}` }];
      if (installationOn) {
        const id = options.app!.installations[`${installationOn[1]}/${installationOn[2]}`];
        return id === undefined ? [404, { message: "Not Found" }] : [200, { id }];
      }
      if (method !== "POST") return [404, { message: "Not Found" }];
      const id = Number(tokenFor![1]);
      if (!Object.values(options.app!.installations).includes(id)) return [404, { message: "Not Found" }];
      const token = `ghs_${crypto.randomBytes(12).toString("hex")}`;
      issuedTokens.push(token);
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
      return [201, { token, expires_at: expiresAt, permissions: { issues: "write" }, repository_selection: "all" }];
    }
    if (!credential || !(issuedTokens.includes(credential) || options.tokens?.includes(credential)))
      return [401, { message: "Bad credentials" }];
    const input = (body ?? {}) as Record<string, unknown>;
    let match: RegExpExecArray | null;
    if (method === "POST" && (match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path))) {
      const comment = {
        id: nextId++,
        owner: match[1]!,
        repo: match[2]!,
        number: Number(match[3]),
        body: String(input.body),
        edits: 0,
      };
      comments.push(comment);
      return [201, { id: comment.id, body: comment.body, user: { login: "agentfold-test[bot]" } }];
    }
    if (method === "PATCH" && (match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(path))) {
      const comment = comments.find((c) => c.id === Number(match![3]) && c.owner === match![1] && c.repo === match![2]);
      if (!comment) return [404, { message: "Not Found" }];
      comment.body = String(input.body);
      comment.edits += 1;
      return [200, { id: comment.id, body: comment.body }];
    }
    if (method === "POST" && (match = /^\/repos\/([^/]+)\/([^/]+)\/statuses\/([0-9a-f]+)$/.exec(path))) {
      const status = {
        owner: match[1]!,
        repo: match[2]!,
        sha: match[3]!,
        state: String(input.state),
        context: String(input.context),
      };
      statuses.push(status);
      return [201, { id: nextId++, ...status }];
    }
    if (method === "GET" && (match = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(path))) {
      const pull = pulls.get(`${match[1]}/${match[2]}#${match[3]}`);
      return pull ? [200, pull] : [404, { message: "Not Found" }];
    }
    return [404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" }];
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const path = new URL(request.url ?? "/", "http://fake").pathname;
      let body: unknown;
      try {
        body = text ? (JSON.parse(text) as unknown) : undefined;
      } catch {
        body = text;
      }
      const authorization = request.headers.authorization;
      calls.push({ method: request.method ?? "GET", path, body, ...(authorization ? { authorization } : {}) });
      const [status, answered] = answer(request.method ?? "GET", path, body, authorization);
      response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify(answered));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    comments,
    statuses,
    issuedTokens,
    addPull: (owner, repo, pull) => void pulls.set(`${owner}/${repo}#${pull.number}`, pull),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Why a GitHub App JWT is refused, or undefined when it is good. */
function jwtProblem(jwt: string | undefined, app: { id: number; publicKey: KeyObject } | undefined) {
  if (!app) return "this fake has no GitHub App";
  const parts = jwt?.split(".");
  if (parts?.length !== 3) return "not a JWT";
  const [header, payload, signature] = parts as [string, string, string];
  const decode = (part: string) =>
    JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
  const head = decode(header);
  if (head.alg !== "RS256") return `alg ${String(head.alg)}, not RS256`;
  const isSigned = crypto.verify(
    "RSA-SHA256",
    Buffer.from(`${header}.${payload}`),
    app.publicKey,
    Buffer.from(signature, "base64url"),
  );
  if (!isSigned) return "not signed by the App's key";
  const claims = decode(payload);
  if (String(claims.iss) !== String(app.id)) return `issued for ${String(claims.iss)}, not the App ${app.id}`;
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== "number" || claims.exp <= now) return "expired";
  if (typeof claims.iat !== "number" || claims.iat > now + 60) return "issued in the future";
  return undefined;
}
