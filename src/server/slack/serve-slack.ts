// POST /<slug>/v1/channels/<id>/events and …/interactivity for a Slack pack channel
// (docs/integrations.md, "Slack"): Slack's Events API and its interactivity callbacks. Every
// request is verified with the agent's signing secret by the Slack SDK's own check (the
// signature over the raw body, and a timestamp within 5 minutes, so a captured request cannot be
// replayed); anything else is 401 and changes nothing. Slack wants an answer within 3 s, so the
// work answered here is a database write and a hand-over to the engine.
import { isValidSlackRequest } from "@slack/bolt/dist/receivers/verify-request.js";
import type { PackRoute } from "@/server/agent-channels/pack-types";
import { AppError } from "@/server/errors";
import { errorResponse, json } from "@/server/http/respond";
import { handleSlackAction, type SlackActionPayload } from "./slack-actions";
import { handleSlackEvent, type SlackEventCallback } from "./slack-events";
import { slackPackOf, slackSecrets } from "./slack-pack";

/** Slack's own requests are small; this bounds what is read before the signature is checked. */
const maxBodyBytes = 1024 * 1024;

export const serveSlack: PackRoute = async (services, { request, agent, channel, path }) => {
  try {
    const route = path.join("/");
    if (route !== "events" && route !== "interactivity")
      throw new AppError("not_found", `a Slack channel answers at /events and /interactivity, not /${route}`);
    if (request.method !== "POST")
      return json({ ok: false, error: "method_not_allowed", message: "use POST" }, 405, { allow: "POST" });
    const pack = slackPackOf(channel);
    const secrets = await slackSecrets(services.secrets, agent.id, pack);
    if (!secrets.signingSecret)
      throw new AppError(
        "unauthorized",
        `set the agent's secret ${pack.names.signingSecret} (the Slack app's signing secret) to receive Slack requests`,
      );
    const length = Number(request.headers.get("content-length") ?? 0);
    if (length > maxBodyBytes) throw new AppError("payload_too_large", "a Slack request is at most 1 MiB");
    const body = await request.text();
    const timestamp = Number(request.headers.get("x-slack-request-timestamp"));
    const isValid = isValidSlackRequest({
      signingSecret: secrets.signingSecret,
      body,
      headers: {
        "x-slack-signature": request.headers.get("x-slack-signature") ?? "",
        "x-slack-request-timestamp": timestamp,
      },
    });
    if (!isValid)
      throw new AppError(
        "unauthorized",
        "the request is not signed with this agent's Slack signing secret, or is stale",
      );
    if (route === "interactivity") {
      const payload = new URLSearchParams(body).get("payload");
      if (!payload) throw new AppError("invalid_input", "an interactivity request carries a `payload` form field");
      await handleSlackAction(
        services,
        { agent, pack, botToken: secrets.botToken },
        parseJson(payload) as SlackActionPayload,
      );
      return new Response(null, { status: 200 });
    }
    const parsed = parseJson(body) as { type?: string; challenge?: string };
    // The one request Slack sends when the events URL is saved in the app's settings.
    if (parsed.type === "url_verification") return json({ challenge: parsed.challenge ?? "" }, 200);
    if (parsed.type !== "event_callback") return json({ ok: true, ignored: `a ${parsed.type} request` }, 200);
    const outcome = await handleSlackEvent(
      services,
      { agent, pack, botToken: secrets.botToken },
      parsed as SlackEventCallback,
    );
    return json({ ok: true, ...outcome }, 200);
  } catch (error) {
    return errorResponse(error);
  }
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "the request body is not JSON");
  }
}
