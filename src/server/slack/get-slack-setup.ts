// One Slack channel's setup: the one named, or the agent's only Slack channel; not_found when the
// active version has none, invalid_input when it has several and none was named.
import { AppError } from "@/server/errors";
import { listSlackSetups, type SlackSetupQuery } from "./list-slack-setups";
import type { SlackSetup } from "./schema";

export async function getSlackSetup(
  query: SlackSetupQuery & { channelId?: string },
): Promise<SlackSetup & { agentId: string }> {
  const { agentId, channels } = await listSlackSetups(query);
  if (channels.length === 0)
    throw new AppError(
      "not_found",
      `agent '${query.slug}' has no Slack channel in its active version (bot/channels/<id>.ts exporting slackChannel(…))`,
    );
  if (query.channelId) {
    const named = channels.find((channel) => channel.channelId === query.channelId);
    if (!named)
      throw new AppError(
        "not_found",
        `agent '${query.slug}' has no Slack channel '${query.channelId}'; its Slack channels: ${channels.map((c) => c.channelId).join(", ")}`,
      );
    return { agentId, ...named };
  }
  if (channels.length > 1)
    throw new AppError(
      "invalid_input",
      `agent '${query.slug}' has ${channels.length} Slack channels (${channels.map((c) => c.channelId).join(", ")}); name one with --channel`,
    );
  return { agentId, ...channels[0]! };
}
