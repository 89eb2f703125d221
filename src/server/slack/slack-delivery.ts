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
import type { ChatPostMessageArguments, KnownBlock } from "@slack/web-api";
import type { SessionEvent } from "@/agents/sdk/events";
import { readChannelState, saveChannelState } from "@/server/agent-channels/channel-state";
import type { PackDeliveryServices } from "@/server/agent-channels/pack-types";
import type { HookTarget } from "@/server/hooks/hook-target";
import { approveActionId, denyActionId } from "./slack-actions";
import { slackClient, slackPackOf, slackSecrets, type SlackThread } from "./slack-pack";

/** How often a streamed reply's message is updated at most. */
export const streamUpdateMs = 1_000;

type SlackState = { slack?: SlackThread; approvals?: Record<string, string> };

/** A streamed message being written, per session (the dispatcher holds a session in one worker). */
type Streaming = { ts?: string; text: string; updatedAt: number };

export function slackDelivery(services: PackDeliveryServices) {
  const streaming = new Map<string, Streaming>();
  const subagentSteps = new Map<string, number>();

  return async ({ target, event }: { target: HookTarget; event: SessionEvent }): Promise<void> => {
    const channel = target.channel;
    if (!channel) return;
    const pack = slackPackOf({ name: channel.name, config: channel.config });
    // Most events (a post-mode reply's deltas above all) are nothing to Slack: no read, no request.
    if (!handles(event.type, pack.config)) return;
    const state = (await readChannelState(services.db, target.sessionId, {})) as SlackState;
    const thread = state.slack;
    if (!thread) return;
    const { botToken } = await slackSecrets(services.secrets, target.agentId, pack);
    if (!botToken) throw new Error(`the agent's secret ${pack.names.botToken} is not set: nothing is posted to Slack`);
    const client = slackClient(botToken, services.slackApiUrl);
    const inThread = thread.threadTs ? { thread_ts: thread.threadTs } : {};
    const post = (message: { text: string; blocks?: KnownBlock[] }) =>
      client.chat.postMessage({ channel: thread.channel, ...inThread, ...message } as ChatPostMessageArguments);
    const status = pack.config.reply.status;
    // The status line belongs to a thread; one that cannot be set (not an assistant thread, a
    // missing scope) must not cost the reply.
    const setStatus = (text: string) =>
      thread.threadTs
        ? client.assistant.threads
            .setStatus({
              channel_id: thread.channel,
              thread_ts: thread.threadTs,
              status: text,
              ...(text && status?.idle?.length ? { loading_messages: status.idle } : {}),
            })
            .then(
              () => undefined,
              () => undefined,
            )
        : Promise.resolve();
    const sessionId = target.sessionId;
    // A subagent's own steps write their text to the subagent, not to the thread.
    const depth = subagentSteps.get(sessionId) ?? 0;

    switch (event.type) {
      case "turn.started":
        if (status) await setStatus(status.reasoning === false ? "is working…" : "is thinking…");
        return;
      case "step.started":
        if (event.data.parentCallId) subagentSteps.set(sessionId, depth + 1);
        return;
      case "step.completed":
        if (event.data.parentCallId) subagentSteps.set(sessionId, Math.max(0, depth - 1));
        return;
      case "actions.requested":
        if (status?.tools && depth === 0)
          await setStatus(`is running ${[...new Set(event.data.calls.map((call) => call.toolName))].join(", ")}…`);
        return;
      case "message.appended": {
        if (pack.config.reply.mode !== "stream" || depth > 0) return;
        const now = Date.now();
        const current = streaming.get(sessionId) ?? { text: "", updatedAt: 0 };
        current.text += event.data.delta;
        streaming.set(sessionId, current);
        if (!current.ts) {
          if (current.text.trim().length === 0) return;
          current.ts = (await post({ text: current.text })).ts;
          current.updatedAt = now;
        } else if (now - current.updatedAt >= streamUpdateMs) {
          await client.chat.update({ channel: thread.channel, ts: current.ts, text: current.text });
          current.updatedAt = now;
        }
        return;
      }
      case "message.completed": {
        if (depth > 0) return;
        const current = streaming.get(sessionId);
        streaming.delete(sessionId);
        const text = event.data.text;
        if (current?.ts) {
          await client.chat.update({ channel: thread.channel, ts: current.ts, text: text || current.text });
          return;
        }
        if (text.trim().length > 0) await post({ text });
        return;
      }
      case "action.approval_requested": {
        if (!pack.config.toolApprovals) return;
        const value = JSON.stringify({ sessionId, callId: event.data.callId });
        const asked = `*${event.data.toolName}* wants to run with \`${truncate(JSON.stringify(event.data.args), 500)}\``;
        const blocks: KnownBlock[] = [
          { type: "section", text: { type: "mrkdwn", text: asked } },
          {
            type: "actions",
            elements: [
              {
                type: "button",
                action_id: approveActionId,
                style: "primary",
                text: { type: "plain_text", text: "Approve" },
                value,
              },
              {
                type: "button",
                action_id: denyActionId,
                style: "danger",
                text: { type: "plain_text", text: "Deny" },
                value,
              },
            ],
          },
        ];
        const posted = await post({ text: `${event.data.toolName} needs approval`, blocks });
        if (posted.ts)
          await saveChannelState(services.db, sessionId, {
            ...state,
            approvals: { ...state.approvals, [event.data.callId]: posted.ts },
          });
        return;
      }
      case "action.approval_resolved": {
        const ts = state.approvals?.[event.data.callId];
        if (!ts) return;
        const who = event.data.approvedBy?.attributes?.user_id;
        const by = who ? ` by <@${who}>` : event.data.reason ? ` (${event.data.reason})` : "";
        const text = event.data.decision === "approved" ? `✅ Approved${by}` : `🚫 Denied${by}`;
        await client.chat.update({
          channel: thread.channel,
          ts,
          text,
          blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
        });
        return;
      }
      case "turn.completed":
        streaming.delete(sessionId);
        subagentSteps.delete(sessionId);
        if (status) await setStatus("");
        return;
      case "turn.failed":
        streaming.delete(sessionId);
        subagentSteps.delete(sessionId);
        if (status) await setStatus("");
        await post({
          text: event.data.status === "cancelled" ? "Stopped." : `Sorry — this turn failed: ${event.data.message}`,
        });
        return;
    }
  };
}

/** The events this channel's settings make something of. */
function handles(type: SessionEvent["type"], config: ReturnType<typeof slackPackOf>["config"]): boolean {
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

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
