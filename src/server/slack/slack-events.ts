// What a Slack event does (docs/integrations.md, "Slack"): a mention, a DM, or a post in a watched
// channel wakes the agent; a thread is one session (a DM is one, or one per top-level message with
// `continuation: "slack.dmthread/v2"`); later posts in a thread the agent is in follow up, queued
// behind a running turn (admission coalesce); a whole-message `stop` interrupts the turn and clears
// the queue. The same for events from the Events API and from Socket Mode.
import type { AgentBySlug } from "@/server/agents/find-agent-by-slug";
import { claimDelivery, releaseDelivery } from "@/server/agent-channels/channel-deliveries";
import type { PackServices } from "@/server/agent-channels/pack-types";
import { findConversation, sendOnConversation } from "@/server/sessions/send-from-agent";
import { interruptSession } from "@/server/sessions/stop-session";
import { slackClient, slackUserPrincipal, type SlackPack, type SlackThread } from "./slack-pack";

/** The parts of an `event_callback` this pack reads. */
export type SlackEventCallback = {
  type: "event_callback";
  team_id: string;
  event_id: string;
  authorizations?: { user_id?: string; is_bot?: boolean }[];
  event?: {
    type: string;
    subtype?: string;
    user?: string;
    bot_id?: string;
    text?: string;
    channel?: string;
    channel_type?: string;
    ts?: string;
    thread_ts?: string;
  };
};

export type SlackEventOutcome =
  | { kind: "ignored"; why: string }
  | { kind: "sent"; sessionId: string; isNew: boolean }
  | { kind: "stopped"; sessionId: string };

const isStop = (text: string) => /^stop[.!]*$/i.test(text.trim());

export async function handleSlackEvent(
  services: Pick<PackServices, "db" | "runtime" | "slackApiUrl">,
  where: { agent: Pick<AgentBySlug, "id">; pack: SlackPack; botToken?: string },
  body: SlackEventCallback,
): Promise<SlackEventOutcome> {
  const { db, runtime } = services;
  const { agent, pack } = where;
  const event = body.event;
  if (!event || (event.type !== "app_mention" && event.type !== "message"))
    return { kind: "ignored", why: `not a message (${event?.type ?? "no event"})` };
  // Edits, joins, bots (this one included) and replies the platform posted do not wake anyone.
  if (event.subtype || event.bot_id || !event.user || !event.channel || !event.ts)
    return { kind: "ignored", why: "not a person's new message" };
  const botUserId = body.authorizations?.find((a) => a.is_bot !== false)?.user_id ?? (await botUserOf(services, where));
  if (event.user === botUserId) return { kind: "ignored", why: "the bot's own message" };
  const mention = botUserId ? `<@${botUserId}>` : undefined;
  const isDm = event.type === "message" && event.channel_type === "im";
  // A mention in a channel also arrives as a `message`: the app_mention is the one acted on.
  if (event.type === "message" && !isDm && mention && event.text?.includes(mention))
    return { kind: "ignored", why: "the app_mention event carries it" };
  const text = (mention ? (event.text ?? "").split(mention).join("") : (event.text ?? "")).trim();
  const threadTs = event.thread_ts ?? event.ts;
  const isOneDmSession = isDm && pack.config.continuation !== "slack.dmthread/v2";
  const key = isOneDmSession
    ? `slack:${body.team_id}:${event.channel}`
    : `slack:${body.team_id}:${event.channel}:${threadTs}`;
  const known = await findConversation(db, { agentId: agent.id, channelId: pack.channelId, key });
  const wakes =
    event.type === "app_mention" ||
    isDm ||
    known !== undefined ||
    (!event.thread_ts && (pack.config.watchChannels ?? []).includes(event.channel));
  if (!wakes) return { kind: "ignored", why: "not addressed to the agent" };
  const claim = { agentId: agent.id, channelId: pack.channelId, deliveryId: body.event_id };
  if (!(await claimDelivery(db, claim))) return { kind: "ignored", why: `event ${body.event_id} was already taken` };
  try {
    if (isStop(text)) {
      if (!known) return { kind: "ignored", why: "stop, with nothing running" };
      await interruptSession(db, runtime, known);
      return { kind: "stopped", sessionId: known };
    }
    if (text.length === 0) return { kind: "ignored", why: "an empty message" };
    const thread: SlackThread = {
      channel: event.channel,
      teamId: body.team_id,
      // One DM session answers in the DM itself; everything else answers in its thread.
      ...(isOneDmSession ? {} : { threadTs }),
    };
    const sent = await sendOnConversation({
      db,
      runtime,
      agentId: agent.id,
      channelId: pack.channelId,
      key,
      principal: slackUserPrincipal(body.team_id, event.user),
      message: text,
      title: text.length > 80 ? `${text.slice(0, 79)}…` : text,
      deliveryId: body.event_id,
      admission: "coalesce",
      state: { slack: thread },
      isFollowUpAsOwner: true,
    });
    return { kind: "sent", sessionId: sent.id, isNew: sent.isNew };
  } catch (error) {
    // Nothing came of it: Slack's retry of the event may try again.
    await releaseDelivery(db, claim);
    throw error;
  }
}

const botUsers = new Map<string, Promise<string | undefined>>();

/** The bot's own user id, for events that do not carry `authorizations` (Socket Mode's may not). */
function botUserOf(
  services: Pick<PackServices, "slackApiUrl">,
  where: { botToken?: string },
): Promise<string | undefined> {
  const token = where.botToken;
  if (!token) return Promise.resolve(undefined);
  let found = botUsers.get(token);
  if (!found) {
    found = slackClient(token, services.slackApiUrl)
      .auth.test()
      .then((answer) => answer.user_id);
    found.catch(() => botUsers.delete(token));
    botUsers.set(token, found);
  }
  return found;
}
