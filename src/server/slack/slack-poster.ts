// How a Slack delivery writes to a session's thread: new messages (in the thread when replies are
// threaded) and the thread's status line (assistant.threads.setStatus).
import type { ChatPostMessageArguments, WebClient } from "@slack/web-api";
import type { SlackMessage, ThreadDelivery } from "./slack-delivery-types";
import type { SlackPackConfig, SlackThread } from "./slack-pack";

export function slackPoster(
  client: WebClient,
  thread: SlackThread,
  status: SlackPackConfig["reply"]["status"],
): Pick<ThreadDelivery, "post" | "setStatus"> {
  const inThread = thread.threadTs ? { thread_ts: thread.threadTs } : {};
  const post = (message: SlackMessage) =>
    client.chat.postMessage({ channel: thread.channel, ...inThread, ...message } as ChatPostMessageArguments);
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
  return { post, setStatus };
}
