// ANY /<slug>/v1/channels/<id>/<path> (and /v1/channels/… in single-agent mode): an agent's own
// HTTP route (docs/agent-folders.md, "Channels"). The platform finds the route and admits its own
// credentials (a token with channels:invoke on the agent, a signed-in member); otherwise the
// channel's auth chain decides, in the sandbox, where its bearer secret lives. The handler runs
// in the version's sandbox and its Response comes back; work it hands to waitUntil goes on after.
import crypto from "node:crypto";
import type { RouteRequest } from "@/agents/sandbox/protocol";
import { callRoute } from "@/agents/sandbox/route-call";
import { processLogger } from "@/server/logging/logger";
import { SandboxError } from "@/agents/sandbox/sandbox";
import { env } from "@/env";
import { findChannel } from "./find-channel";
import { versionSandboxSpec } from "@/server/agents/storage";
import { proxyEvidence } from "@/server/auth/local-caller";
import type { Principal } from "@/server/auth/principal";
import { db } from "@/server/db";
import { AppError } from "@/server/errors";
import { reauthorize } from "@/server/http/agent-route";
import { readBodyBytes, maxBodyBytes } from "@/server/http/read-json";
import { errorResponse, json } from "@/server/http/respond";
import { matchRoute } from "./match-route";
import { agentLogs, agentSecretKey, durableRuntime } from "@/server/http/platform";
import { webSandboxes } from "./web-sandboxes";
import { packOf, packRoutes } from "./packs";
import type { PackServices } from "./pack-types";
import { packSecretReader } from "@/server/secrets/read-pack-secrets";

let packServices: PackServices | undefined;

/** What the Slack and GitHub packs' routes work with in this web process. */
function webPackServices(): PackServices {
  const config = env();
  packServices ??= {
    db: db(),
    runtime: durableRuntime(),
    secrets: packSecretReader({ db: db(), key: agentSecretKey() }),
    dataDir: config.dataDir,
    sandboxes: webSandboxes,
    logs: agentLogs(),
    ...(config.SLACK_API_URL ? { slackApiUrl: config.SLACK_API_URL } : {}),
    ...(config.GITHUB_API_URL ? { githubApiUrl: config.GITHUB_API_URL } : {}),
  };
  return packServices;
}

/** How long a handler may take to answer; its waitUntil work may go on for `workMs` in all. */
export const answerMs = 60_000;
const workMs = 5 * 60_000;

// Headers a handler may not set: they belong to the connection, or to the platform's own origin
// (a cookie set here would be the dashboard's).
const withheld = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "proxy-authenticate",
  "proxy-authorization",
  "content-length",
  "set-cookie",
]);

export async function serveChannelRoute(
  request: Request,
  where: { slug: string; channelId: string; path: string[] },
): Promise<Response> {
  try {
    return await serve(request, where);
  } catch (error) {
    return errorResponse(error);
  }
}

async function serve(request: Request, { slug, channelId, path }: { slug: string; channelId: string; path: string[] }) {
  const { agent, version, channel } = await findChannel(db(), slug, channelId);
  const pack = packOf(channel);
  if (pack)
    return packRoutes[pack]!(webPackServices(), {
      request,
      agent,
      version: { id: version.id, bundlePath: `${env().dataDir}/${version.bundlePath}` },
      channel,
      path,
    });
  const match = matchRoute(channel.routes, request.method, path);
  if (!match.found) {
    if (match.allowed.length === 0)
      throw new AppError("not_found", `channel '${channelId}' has no route /${path.join("/")}`);
    return json({ ok: false, error: "method_not_allowed", message: `use ${match.allowed.join(", ")}` }, 405, {
      allow: match.allowed.join(", "),
    });
  }
  const principal = await platformPrincipal(request, slug);
  const body = await readBodyBytes(request, maxBodyBytes);
  const url = new URL(request.url);
  const routeRequest: RouteRequest = {
    channelId,
    file: channel.file,
    method: request.method,
    pattern: match.route.path,
    url: url.toString(),
    params: match.params,
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(request.headers),
    ...(body.length > 0 ? { body: body.toString("base64") } : {}),
    ...(principal ? { principal } : {}),
    isDirectLoopback: proxyEvidence(request.headers, env().AGENTFOLD_HOST) === undefined,
  };
  const config = env();
  const bundlePath = `${config.dataDir}/${version.bundlePath}`;
  const sandbox = (await webSandboxes()).forVersion(
    versionSandboxSpec(config.dataDir, { agentId: agent.id, versionId: version.id, bundlePath }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AppError("unavailable", `the channel's handler did not answer within ${answerMs / 1000} s`)),
      answerMs,
    );
  });
  const call = callRoute(sandbox, routeRequest, {
    timeoutMs: workMs,
    hostContext: {
      agentId: agent.id,
      versionId: version.id,
      bundlePath,
      channelId,
      // Sessions a route starts are its caller's when the platform admitted one, else the channel's.
      principal: principal ?? { kind: "app", id: `channel:${channelId}` },
    },
  });
  const answer = await Promise.race([call, late])
    .catch((error: unknown) => {
      throw error instanceof AppError ? error : handlerFailure(error, { agentId: agent.id, slug, channelId }, request);
    })
    .finally(() => clearTimeout(timer));
  answer.done.catch((error: unknown) => void handlerFailure(error, { agentId: agent.id, slug, channelId }, request));
  const headers = new Headers(answer.headers.filter(([name]) => !withheld.has(name.toLowerCase())));
  const isEmpty = answer.status === 204 || answer.status === 304 || request.method === "HEAD";
  return new Response(isEmpty ? null : answer.body, { status: answer.status, headers });
}

/** A platform credential that may invoke the agent's channels; undefined lets the chain decide. */
async function platformPrincipal(request: Request, slug: string): Promise<Principal | undefined> {
  try {
    return (await reauthorize(request, slug, "channels:invoke")).principal;
  } catch (error) {
    if (error instanceof AppError && (error.code === "unauthorized" || error.code === "forbidden")) return undefined;
    throw error;
  }
}

/** A handler that threw or crashed: 500 with an id the logs carry, never the error itself. */
function handlerFailure(
  error: unknown,
  where: { agentId: string; slug: string; channelId: string },
  request: Request,
): AppError {
  const id = `err_${crypto.randomBytes(6).toString("hex")}`;
  const message = error instanceof SandboxError || error instanceof Error ? error.message : String(error);
  const line = `${request.method} ${new URL(request.url).pathname} failed [${id}]: ${message}`;
  processLogger().error({ agent: where.slug, channel: where.channelId, errorId: id }, line);
  agentLogs().write({
    agentId: where.agentId,
    level: "error",
    source: "channel",
    name: `channels/${where.channelId}`,
    message: line,
  });
  return new AppError("internal_error", `the channel's handler failed (error ${id}; the agent's logs have it)`);
}
