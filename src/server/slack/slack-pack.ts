// A Slack pack channel as the platform works with it: its settings from the manifest, the agent
// secrets it reads (docs/integrations.md, "Slack"), the principal a Slack user acts as, and the
// Web API client (@slack/web-api) pointed at Slack or at SLACK_API_URL.
import { WebClient, LogLevel } from "@slack/web-api";
import type { SlackReplyMode } from "@/agents/sdk/channels/slack";
import { defaultSlackAuth, slackEnvNames } from "@/agents/sdk/channels/slack";
import type { Principal } from "@/agents/sdk/types";
import type { PackSecretReader } from "@/server/secrets/read-pack-secrets";

export type SlackPackConfig = {
  envPrefix?: string;
  reply: { mode: SlackReplyMode; status?: { reasoning?: boolean; tools?: boolean; idle?: string[] } };
  continuation?: "slack.dmthread/v2";
  toolApprovals: boolean;
  watchChannels?: string[];
};

export type SlackPack = { channelId: string; config: SlackPackConfig; names: ReturnType<typeof slackEnvNames> };

export function slackPackOf(channel: { name: string; config: unknown }): SlackPack {
  const config = channel.config as SlackPackConfig;
  return { channelId: channel.name, config, names: slackEnvNames(config) };
}

export type SlackSecrets = { botToken?: string; signingSecret?: string; appToken?: string };

export async function slackSecrets(secrets: PackSecretReader, agentId: string, pack: SlackPack): Promise<SlackSecrets> {
  const { botToken, signingSecret, appToken } = pack.names;
  const values = await secrets(agentId, [botToken, signingSecret, appToken]);
  return { botToken: values[botToken], signingSecret: values[signingSecret], appToken: values[appToken] };
}

const clients = new Map<string, WebClient>();

/** One client per token and address: each keeps its own rate-limit queue, as Slack counts per token. */
export function slackClient(token: string, slackApiUrl?: string): WebClient {
  const key = `${slackApiUrl ?? ""}\n${token}`;
  let client = clients.get(key);
  if (!client) {
    client = new WebClient(token, {
      ...(slackApiUrl ? { slackApiUrl } : {}),
      logLevel: LogLevel.ERROR,
      // A reply is worth a few quick retries, not the SDK's default half hour of them: the
      // dispatcher would hold every later event of the session meanwhile.
      retryConfig: { retries: 2, factor: 2, minTimeout: 250, maxTimeout: 2_000 },
    });
    if (clients.size >= 100) clients.delete(clients.keys().next().value!);
    clients.set(key, client);
  }
  return client;
}

/** A Slack user as a principal: stable across renames (ids), with Slack's ids as attributes
 * (docs/integrations.md: `approvedBy.attributes.user_id`). */
export function slackUserPrincipal(teamId: string, userId: string): Principal {
  return defaultSlackAuth({ teamId, userId });
}

/** Where a session's replies go: the conversation, and the thread when replies are threaded. */
export type SlackThread = { channel: string; threadTs?: string; teamId: string };
