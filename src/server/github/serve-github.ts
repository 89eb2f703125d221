// POST /<slug>/v1/channels/<id>/webhook — a GitHub pack channel's webhook (docs/integrations.md,
// "GitHub"). Every delivery is verified against the agent's GITHUB_WEBHOOK_SECRET by
// @octokit/webhooks (HMAC-SHA256 of the raw body, X-Hub-Signature-256); anything else is 401 and
// changes nothing. A delivery id (X-GitHub-Delivery) acts once, so a redelivery starts no second
// turn. The answer comes before the turn runs: GitHub waits 10 s at most.
import { Webhooks } from "@octokit/webhooks";
import { z } from "zod";
import type { Principal } from "@/agents/sdk/types";
import { claimDelivery, releaseDelivery } from "@/server/agent-channels/channel-deliveries";
import type { PackRequest, PackRoute, PackServices } from "@/server/agent-channels/pack-types";
import { AppError } from "@/server/errors";
import { readBodyBytes } from "@/server/http/read-json";
import { errorResponse, json } from "@/server/http/respond";
import { findConversation, sendOnConversation } from "@/server/sessions/send-from-agent";
import { decideGitHubTurn } from "./decide-github-turn";
import { handledEvents, readGitHubEvent, type GitHubEvent } from "./github-events";
import { githubPackOf, githubSecretNames, isBotLogin, postedMarker, type GitHubPack } from "./github-pack";
import { mergeGitHubThread } from "./github-state";

/** Larger deliveries are refused before their signature is checked (GitHub's own cap is 25 MB). */
const maxBodyBytes = 5 * 1024 * 1024;

export const serveGitHub: PackRoute = async (services, input) => {
  try {
    const route = input.path.join("/");
    if (route !== "webhook") throw new AppError("not_found", `a GitHub channel answers at /webhook, not /${route}`);
    if (input.request.method !== "POST")
      return json({ ok: false, error: "method_not_allowed", message: "use POST" }, 405, { allow: "POST" });
    const pack = githubPackOf(input.channel);
    const body = await verifiedBody(services, input);
    const name = input.request.headers.get("x-github-event") ?? "";
    if (name === "ping") return json({ ok: true }, 200);
    if (!(handledEvents as readonly string[]).includes(name))
      return json({ ok: true, ignored: `the ${name || "unnamed"} event` }, 200);
    const deliveryId = input.request.headers.get("x-github-delivery") ?? undefined;
    const event = readEvent(pack, name as (typeof handledEvents)[number], body, deliveryId);
    const ignored = whyIgnored(pack, event);
    if (ignored) return json({ ok: true, ignored }, 200);
    const claim = { agentId: input.agent.id, channelId: pack.channelId, deliveryId: deliveryId ?? "" };
    if (deliveryId && !(await claimDelivery(services.db, claim)))
      return json({ ok: true, ignored: `delivery ${deliveryId} was already taken` }, 200);
    try {
      const decided = await decideGitHubTurn(services, input, pack, event);
      if ("ignored" in decided) return json({ ok: true, ignored: decided.ignored }, 200);
      const sessionId = await sendTurn(services, input, pack, event, decided.auth);
      return json({ ok: true, sessionId }, 202);
    } catch (error) {
      // Nothing started: a redelivery may try again.
      if (deliveryId) await releaseDelivery(services.db, claim);
      throw error;
    }
  } catch (error) {
    return errorResponse(error);
  }
};

async function verifiedBody(services: PackServices, { request, agent }: PackRequest): Promise<unknown> {
  const secretName = githubSecretNames.webhookSecret;
  const secret = (await services.secrets(agent.id, [secretName]))[secretName];
  if (!secret)
    throw new AppError(
      "unauthorized",
      `set the agent's secret ${secretName} (the GitHub App's webhook secret) to receive GitHub webhooks: agentfold secret set ${agent.slug} ${secretName}`,
    );
  const text = (await readBodyBytes(request, maxBodyBytes)).toString("utf8");
  const signature = request.headers.get("x-hub-signature-256") ?? "";
  // verify() throws on an empty signature or body: both are unsigned requests.
  const isValid = await new Webhooks({ secret }).verify(text, signature).catch(() => false);
  if (!isValid) throw new AppError("unauthorized");
  // A webhook set to application/x-www-form-urlencoded sends its JSON in the `payload` field.
  const isForm = request.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded");
  try {
    return JSON.parse(isForm ? (new URLSearchParams(text).get("payload") ?? "") : text) as unknown;
  } catch {
    throw new AppError("invalid_json", "the webhook's payload is not JSON");
  }
}

function readEvent(pack: GitHubPack, name: (typeof handledEvents)[number], body: unknown, deliveryId?: string) {
  try {
    return readGitHubEvent(pack, name, body, deliveryId);
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    const issue = error.issues[0];
    throw new AppError("invalid_input", `a ${name} payload: ${issue?.path.join(".") || "body"}: ${issue?.message}`);
  }
}

function whyIgnored(pack: GitHubPack, event: GitHubEvent): string | undefined {
  const { repo, sender } = event.context;
  const full = `${repo.owner}/${repo.name}`.toLowerCase();
  if (pack.config.repos.length > 0 && !pack.config.repos.some((watched) => watched.toLowerCase() === full))
    return `${repo.owner}/${repo.name} is not one of the channel's repos`;
  // The agent's own comments must not wake it again (a loop).
  if (isBotLogin(pack, sender.login)) return `${sender.login} is the agent's own bot`;
  if (event.comment?.body.includes(postedMarker)) return "a comment Agentfold posted";
  return undefined;
}

/** Starts the PR's (or issue's) session, or continues it as its owner, queued behind a running turn. */
async function sendTurn(
  services: PackServices,
  { agent }: PackRequest,
  pack: GitHubPack,
  event: GitHubEvent,
  auth: Principal,
): Promise<string> {
  const where = { agentId: agent.id, channelId: pack.channelId, key: event.key };
  // A known session learns the new head commit and installation before its turn can start.
  const known = await findConversation(services.db, where);
  if (known) await mergeGitHubThread(services.db, known, event.thread);
  const sent = await sendOnConversation({
    db: services.db,
    runtime: services.runtime,
    ...where,
    principal: auth,
    message: event.message,
    title: event.title,
    ...(event.context.deliveryId ? { deliveryId: event.context.deliveryId } : {}),
    admission: "coalesce",
    state: { github: event.thread },
    isFollowUpAsOwner: true,
  });
  // Started by another delivery since it was looked up: this one's news still counts.
  if (!known && !sent.isNew) await mergeGitHubThread(services.db, sent.id, event.thread);
  return sent.id;
}
