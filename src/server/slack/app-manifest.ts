// The Slack app a Slack pack channel needs, as an app manifest to paste into "Create New App →
// From a manifest" (docs/integrations.md, "Slack"): the bot scopes (each with why), the events, and
// where Slack sends them.

// Not @slack/web-api's Manifest type: its scope list lacks assistant:write.
export type SlackAppManifest = {
  display_information: { name: string; description: string };
  features: {
    app_home: { home_tab_enabled: boolean; messages_tab_enabled: boolean; messages_tab_read_only_enabled: boolean };
    bot_user: { display_name: string; always_online: boolean };
    assistant_view: { assistant_description: string };
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { request_url?: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url?: string };
    org_deploy_enabled: boolean;
    socket_mode_enabled: boolean;
    token_rotation_enabled: boolean;
  };
};

/** Every bot scope the pack uses, and what for; the doctor names a missing one with its reason. */
export const slackBotScopes = [
  { scope: "app_mentions:read", why: "hear @mentions of the bot in channels: the app_mention event" },
  { scope: "chat:write", why: "post replies in threads, edit them as a reply grows, show approval buttons" },
  { scope: "channels:history", why: "read messages in the public channels the bot watches or is mentioned in" },
  { scope: "groups:history", why: "the same in private channels the bot was added to" },
  { scope: "im:history", why: "read direct messages to the bot: the message.im event" },
  { scope: "mpim:history", why: "read group direct messages that include the bot" },
  { scope: "im:read", why: "see the bot's direct-message conversations" },
  { scope: "users:read", why: "look up who clicked Approve or Deny with users.info" },
  {
    scope: "users:read.email",
    why: "match whoever clicks Approve or Deny to the team member with that verified email",
  },
  { scope: "reactions:write", why: "react to messages, for agent code using ctx.host.slack" },
  { scope: "assistant:write", why: "show the status line under a thread with assistant.threads.setStatus" },
] as const;

export type SlackBotScope = (typeof slackBotScopes)[number]["scope"];

/** Mentions, DMs, and posts in the channels (public, private, group DMs) the bot is in. */
export const slackBotEvents = [
  "app_mention",
  "message.im",
  "message.channels",
  "message.groups",
  "message.mpim",
] as const;

export function slackAppManifest(options: {
  agentName: string;
  /** Slack's bot display name allows a-z, 0-9, -, _ and . only: the agent's slug fits. */
  botName: string;
  description?: string;
  eventsUrl: string;
  interactivityUrl: string;
  socketMode: boolean;
}): SlackAppManifest {
  const { socketMode } = options;
  const description = (options.description || `${options.agentName}, an Agentfold agent`).slice(0, 140);
  return {
    display_information: { name: options.agentName.slice(0, 35), description },
    features: {
      // The Messages tab lets people DM the bot.
      app_home: { home_tab_enabled: false, messages_tab_enabled: true, messages_tab_read_only_enabled: false },
      bot_user: { display_name: options.botName.slice(0, 80), always_online: true },
      // Slack refuses assistant:write in a manifest without this feature.
      assistant_view: { assistant_description: description },
    },
    oauth_config: { scopes: { bot: slackBotScopes.map((entry) => entry.scope) } },
    settings: {
      // Over Socket Mode, Slack sends events and interactions on the WebSocket, not to a URL.
      event_subscriptions: {
        ...(socketMode ? {} : { request_url: options.eventsUrl }),
        bot_events: [...slackBotEvents],
      },
      interactivity: { is_enabled: true, ...(socketMode ? {} : { request_url: options.interactivityUrl }) },
      org_deploy_enabled: false,
      socket_mode_enabled: socketMode,
      token_rotation_enabled: false,
    },
  };
}
