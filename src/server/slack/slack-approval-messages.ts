// A parked call in the Slack thread (`toolApprovals: true`): a message with Approve / Deny buttons
// (slack-actions.ts takes the click), its ts kept in the channel state by call id, and replaced by
// who decided once it is decided.
import type { KnownBlock } from "@slack/web-api";
import type { SessionEventOf } from "@/agents/sdk/events";
import { saveChannelState } from "@/server/agent-channels/channel-state";
import { approveActionId, denyActionId } from "./slack-actions";
import type { ThreadDelivery } from "./slack-delivery-types";

export async function askApproval(
  delivery: ThreadDelivery,
  data: SessionEventOf<"action.approval_requested">["data"],
): Promise<void> {
  const { sessionId, state } = delivery;
  if (!delivery.pack.config.toolApprovals) return;
  const value = JSON.stringify({ sessionId, callId: data.callId });
  const asked = `*${data.toolName}* wants to run with \`${truncate(JSON.stringify(data.args), 500)}\``;
  const posted = await delivery.post({ text: `${data.toolName} needs approval`, blocks: approvalBlocks(asked, value) });
  if (posted.ts)
    await saveChannelState(delivery.db, sessionId, {
      ...state,
      approvals: { ...state.approvals, [data.callId]: posted.ts },
    });
}

export async function showDecision(
  delivery: ThreadDelivery,
  data: SessionEventOf<"action.approval_resolved">["data"],
): Promise<void> {
  const ts = delivery.state.approvals?.[data.callId];
  if (!ts) return;
  const who = data.approvedBy?.attributes?.user_id;
  const by = who ? ` by <@${who}>` : data.reason ? ` (${data.reason})` : "";
  const text = data.decision === "approved" ? `✅ Approved${by}` : `🚫 Denied${by}`;
  await delivery.client.chat.update({
    channel: delivery.thread.channel,
    ts,
    text,
    blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
  });
}

/** The question and its buttons; each button's value is `{ sessionId, callId }`. */
function approvalBlocks(asked: string, value: string): KnownBlock[] {
  return [
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
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
