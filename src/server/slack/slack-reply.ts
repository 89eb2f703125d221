// An agent's reply in its Slack thread: `reply.mode: "post"` posts each finished message;
// `"stream"` posts the first words and grows that one message with chat.update, at most once per
// streamUpdateMs, then once more with the whole text. A subagent's own text stays out of the thread.
import type { SlackSessions, ThreadDelivery } from "./slack-delivery-types";

/** How often a streamed reply's message is updated at most. */
export const streamUpdateMs = 1_000;

/** message.appended: in stream mode, the delta grows the message being written (posted at its first words). */
export async function appendToReply(
  delivery: ThreadDelivery,
  streaming: SlackSessions["streaming"],
  delta: string,
): Promise<void> {
  const { client, thread, sessionId } = delivery;
  if (delivery.pack.config.reply.mode !== "stream" || delivery.depth > 0) return;
  const now = Date.now();
  const current = streaming.get(sessionId) ?? { text: "", updatedAt: 0 };
  current.text += delta;
  streaming.set(sessionId, current);
  if (!current.ts) {
    if (current.text.trim().length === 0) return;
    current.ts = (await delivery.post({ text: current.text })).ts;
    current.updatedAt = now;
  } else if (now - current.updatedAt >= streamUpdateMs) {
    await client.chat.update({ channel: thread.channel, ts: current.ts, text: current.text });
    current.updatedAt = now;
  }
}

/** message.completed: the streamed message gets the whole text; otherwise the text is posted. */
export async function completeReply(
  delivery: ThreadDelivery,
  streaming: SlackSessions["streaming"],
  text: string,
): Promise<void> {
  const { client, thread, sessionId } = delivery;
  if (delivery.depth > 0) return;
  const current = streaming.get(sessionId);
  streaming.delete(sessionId);
  if (current?.ts) {
    await client.chat.update({ channel: thread.channel, ts: current.ts, text: text || current.text });
    return;
  }
  if (text.trim().length > 0) await delivery.post({ text });
}
