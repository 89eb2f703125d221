// The platform's side of ctx.host.github (src/agents/sandbox/github-api.ts asks): one HTTP
// request of agent code's Octokit, sent by the platform's Octokit with the agent's credentials
// (github-auth.ts) to its GitHub API address; the answer goes back as status, headers and body,
// errors included, for agent code's Octokit to read as it would GitHub's. The installation is the
// one the session's webhook named (or the running handler's), else the one on the repository the
// path names.
import type { PrismaClient } from "@prisma/client";
import type { Octokit } from "@octokit/rest";
import { z } from "zod";
import type { PackHostServices } from "@/server/agent-channels/pack-types";
import { AppError } from "@/server/errors";
import type { HostContext } from "@/server/turns/host-context";
import { parseInput } from "@/server/validation/parse-input";
import type { GitHubHostContext } from "./decide-github-turn";
import { githubOctokit } from "./github-auth";
import { readGitHubThread } from "./github-state";

const requestSchema = z.object({
  method: z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]),
  // A path under the API's address, never a URL of its own: the credentials go to GitHub only.
  path: z
    .string()
    .regex(/^\/(?!\/)/, "a path under the GitHub API, starting with one /")
    .max(8_000),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.string().optional(),
  encoding: z.literal("base64").optional(),
});

/** Headers that belong to the connection or to the platform's own credentials. */
const withheld = new Set(["authorization", "host", "content-length", "connection", "transfer-encoding", "cookie"]);
/** An answer crosses IPC as one JSON message. */
const maxAnswerBytes = 10 * 1024 * 1024;

type Answer = { status: number; headers: Record<string, string>; body: string; encoding?: "base64" };
type GitHubResponse = { status: number; headers: Record<string, unknown>; data: unknown };

export async function githubHostCall(
  db: PrismaClient,
  packs: PackHostServices | undefined,
  host: HostContext,
  params: unknown,
  signal?: AbortSignal,
): Promise<Answer> {
  if (!packs) throw new AppError("unavailable", "ctx.host.github is not available in this process");
  const input = parseInput(requestSchema, params, "ctx.host.github");
  const installationId =
    (host as GitHubHostContext).githubInstallationId ??
    (host.sessionId ? (await readGitHubThread(db, host.sessionId))?.installationId : undefined);
  const repo = /^\/repos\/([^/?#]+)\/([^/?#]+)/.exec(input.path);
  const octokit = await githubOctokit({
    secrets: packs.secrets,
    agentId: host.agentId,
    apiUrl: packs.githubApiUrl,
    installationId,
    ...(repo ? { repo: { owner: decodeURIComponent(repo[1]!), repo: decodeURIComponent(repo[2]!) } } : {}),
  });
  const headers = Object.fromEntries(
    Object.entries(input.headers).filter(([name]) => !withheld.has(name.toLowerCase())),
  );
  const body = input.encoding === "base64" && input.body !== undefined ? Buffer.from(input.body, "base64") : input.body;
  try {
    const response = await octokit.request({
      method: input.method,
      url: graphqlUrl(octokit, input.path) ?? input.path,
      headers,
      ...(body !== undefined ? { data: body } : {}),
      request: { signal },
    });
    return answer(response);
  } catch (error) {
    // GitHub's own refusals (404, 422 …) are agent code's to read, as Octokit would throw them there.
    const response = (error as { response?: GitHubResponse }).response;
    if (response && typeof response.status === "number") return answer(response);
    throw error;
  }
}

/** GitHub Enterprise Server answers GraphQL at /api/graphql, beside /api/v3. */
function graphqlUrl(octokit: Octokit, path: string): string | undefined {
  const base = octokit.request.endpoint.DEFAULTS.baseUrl;
  return path === "/graphql" && /\/api\/v3\/?$/.test(base) ? base.replace(/\/api\/v3\/?$/, "/api/graphql") : undefined;
}

function answer(response: GitHubResponse): Answer {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers))
    if (value !== undefined && name !== "content-length" && name !== "content-encoding") headers[name] = String(value);
  const { data } = response;
  const encoded =
    data === undefined || data === null || data === ""
      ? { body: "" }
      : data instanceof ArrayBuffer
        ? { body: Buffer.from(data).toString("base64"), encoding: "base64" as const }
        : { body: typeof data === "string" ? data : JSON.stringify(data) };
  if (encoded.body.length > maxAnswerBytes)
    throw new AppError(
      "payload_too_large",
      `ctx.host.github: GitHub's answer is over ${maxAnswerBytes / 1024 / 1024} MiB`,
    );
  return { status: response.status, headers, ...encoded };
}
