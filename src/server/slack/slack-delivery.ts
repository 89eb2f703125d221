// A Slack pack session's events, posted back to Slack by the platform (docs/integrations.md,
// "Slack"), in the worker's hook dispatcher: in the session's order, at most once each.
// - replies: `reply.mode: "post"` posts each finished message in the thread; `"stream"` posts the
//   first words and grows that one message with chat.update, at most once a second (Slack's
//   limit for updates is per channel and about one a second), then once more with the whole text;
// - `reply.status`: the thread's status line (assistant.threads.setStatus): thinking, the names of
//   running tools, the idle lines, cleared when the turn ends;
// - `toolApprovals`: a parked call gets Approve / Deny buttons (slack-actions.ts takes the click),
//   replaced by who decided once it is decided;
// - a stopped or failed turn says so in the thread.
import type { SessionEvent } from "@/agents/sdk/events";
import { readChannelState } from "@/server/agent-channels/channel-state";
import type { PackDeliveryServices } from "@/server/agent-channels/pack-types";
import type { HookTarget } from "@/server/hooks/hook-target";
import { askApproval, showDecision } from "./slack-approval-messages";
import type { SlackSessions, SlackState, ThreadDelivery } from "./slack-delivery-types";
import { slackClient, slackPackOf, slackSecrets, type SlackPack, type SlackThread } from "./slack-pack";
import { slackPoster } from "./slack-poster";
import { appendToReply, completeReply } from "./slack-reply";

export { streamUpdateMs } from "./slack-reply";

export function slackDelivery(services: PackDeliveryServices) {
  const sessions: SlackSessions = { streaming: new Map(), subagentSteps: new Map() };

  return async ({ target, event }: { target: HookTarget; event: SessionEvent }): Promise<void> => {
    const channel = target.channel;
    if (!channel) return;
    const pack = slackPackOf({ name: channel.name, config: channel.config });
    // Most events (a post-mode reply's deltas above all) are nothing to Slack: no read, no request.
    if (!handles(event.type, pack.config)) return;
    const state = (await readChannelState(services.db, target.sessionId, {})) as SlackState;
    const thread = state.slack;
    if (!thread) return;
    const delivery = await openThread(services, sessions, { target, pack, state, thread });
    await deliver(delivery, sessions, event);
  };
}

/** The thread's client, with the agent's bot token, and where the session stands in it now. */
async function openThread(
  services: PackDeliveryServices,
  sessions: SlackSessions,
  where: { target: HookTarget; pack: SlackPack; state: SlackState; thread: SlackThread },
): Promise<ThreadDelivery> {
  const { target, pack, state, thread } = where;
  const { botToken } = await slackSecrets(services.secrets, target.agentId, pack);
  if (!botToken) throw new Error(`the agent's secret ${pack.names.botToken} is not set: nothing is posted to Slack`);
  const client = slackClient(botToken, services.slackApiUrl);
  const sessionId = target.sessionId;
  return {
    db: services.db,
    sessionId,
    pack,
    state,
    thread,
    client,
    ...slackPoster(client, thread, pack.config.reply.status),
    // A subagent's own steps write their text to the subagent, not to the thread.
    depth: sessions.subagentSteps.get(sessionId) ?? 0,
  };
}

/** What the event makes of the thread. */
async function deliver(delivery: ThreadDelivery, sessions: SlackSessions, event: SessionEvent): Promise<void> {
  const { sessionId, depth, setStatus } = delivery;
  const status = delivery.pack.config.reply.status;
  switch (event.type) {
    case "turn.started":
      if (status) await setStatus(status.reasoning === false ? "is working…" : "is thinking…");
      return;
    case "step.started":
      if (event.data.parentCallId) sessions.subagentSteps.set(sessionId, depth + 1);
      return;
    case "step.completed":
      if (event.data.parentCallId) sessions.subagentSteps.set(sessionId, Math.max(0, depth - 1));
      return;
    case "actions.requested":
      if (status?.tools && depth === 0)
        await setStatus(`is running ${[...new Set(event.data.calls.map((call) => call.toolName))].join(", ")}…`);
      return;
    case "message.appended":
      return appendToReply(delivery, sessions.streaming, event.data.delta);
    case "message.completed":
      return completeReply(delivery, sessions.streaming, event.data.text);
    case "action.approval_requested":
      return askApproval(delivery, event.data);
    case "action.approval_resolved":
      return showDecision(delivery, event.data);
    case "turn.completed":
      return endTurn(delivery, sessions);
    case "turn.failed":
      await endTurn(delivery, sessions);
      await delivery.post({
        text: event.data.status === "cancelled" ? "Stopped." : `Sorry — this turn failed: ${event.data.message}`,
      });
      return;
  }
}

/** The turn's streamed message and subagent steps are forgotten, and its status line cleared. */
async function endTurn(delivery: ThreadDelivery, sessions: SlackSessions): Promise<void> {
  sessions.streaming.delete(delivery.sessionId);
  sessions.subagentSteps.delete(delivery.sessionId);
  if (delivery.pack.config.reply.status) await delivery.setStatus("");
}

/** The events this channel's settings make something of. */
function handles(type: SessionEvent["type"], config: SlackPack["config"]): boolean {
  switch (type) {
    case "message.appended":
      return config.reply.mode === "stream";
    case "turn.started":
    case "actions.requested":
      return config.reply.status !== undefined;
    case "action.approval_requested":
      return config.toolApprovals;
    case "message.completed":
    case "step.started":
    case "step.completed":
    case "action.approval_resolved":
    case "turn.completed":
    case "turn.failed":
      return true;
    default:
      return false;
  }
}
