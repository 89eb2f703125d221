// ctx.host.github in the sandbox: a real Octokit (@octokit/rest, bundled with the runner) whose
// every HTTP request is a host call ("github.request"). The platform adds the agent's GitHub
// credentials and sends it to its GitHub API address (src/server/github/github-host-call.ts), so
// no token ever enters the sandbox. This file runs ONLY in the sandbox.
import { Octokit } from "@octokit/rest";
import type { HostCallMethod } from "./protocol";

/** The address agent code's Octokit believes it talks to; the platform sends to its own. */
const apiOrigin = "https://api.github.com";

const ignore = () => undefined;
/** A refusal is thrown to agent code, which decides whether it is worth a log line. */
const quiet = { debug: ignore, info: ignore, warn: console.warn, error: ignore };

type Call = (method: HostCallMethod, params: object) => Promise<unknown>;
type Answer = { status: number; headers: Record<string, string>; body: string; encoding?: "base64" };

export function githubApi(call: Call) {
  let octokit: Octokit | undefined;
  const getOctokit = () =>
    (octokit ??= new Octokit({ baseUrl: apiOrigin, request: { fetch: hostFetch(call) }, log: quiet }));
  return Object.freeze({
    getOctokit,
    request: ((route: string, params?: Record<string, unknown>) =>
      getOctokit().request(route, params)) as Octokit["request"],
  });
}

function hostFetch(call: Call) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    // An absolute URL in a route would otherwise carry the agent's credentials anywhere.
    if (url.origin !== apiOrigin) throw new Error(`ctx.host.github reaches the GitHub API only, not ${url.origin}`);
    const answer = (await call("github.request", {
      method: init.method ?? "GET",
      path: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init.headers)),
      ...bodyOf(init.body),
    })) as Answer;
    const isEmpty = answer.status === 204 || answer.status === 205 || answer.status === 304;
    const body = answer.encoding === "base64" ? Buffer.from(answer.body, "base64") : answer.body;
    return new Response(isEmpty ? null : body, { status: answer.status, headers: answer.headers });
  };
}

function bodyOf(body: RequestInit["body"]): { body?: string; encoding?: "base64" } {
  if (body === undefined || body === null) return {};
  if (typeof body === "string") return { body };
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    const bytes = body instanceof ArrayBuffer ? new Uint8Array(body) : body;
    return {
      body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
      encoding: "base64",
    };
  }
  throw new Error("ctx.host.github sends string or byte bodies only");
}
