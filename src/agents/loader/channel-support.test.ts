import { describe, expect, it } from "vitest";
import { checkChannelSupport } from "./channel-support";
import { Diagnostics } from "./diagnostics";
import type { AgentManifest } from "./manifest";

const channel = (name: string, config: object) => ({ name, file: `bot/channels/${name}.ts`, routes: [], config });

describe("validate's check of channel parts the platform does not run", () => {
  it("warns about pack options without effect and onStart, not about custom channels", () => {
    const diagnostics = new Diagnostics();
    const channels = [
      channel("slack", { pack: "slack", reply: { mode: "post" } }),
      channel("agentic", { pack: "slack", reply: { mode: "agent" } }),
      channel("github", { pack: "github", repos: ["acme/shop"] }),
      channel("cursor", { pack: "github", repos: ["acme/shop"], hasCursorAccount: true }),
      channel("hosted", { pack: "slack", engagement: "all", suggestedPrompts: ["Hi"] }),
      channel("quiet", { pack: "github", webhookEvents: ["pull_request"], progress: { reactions: true } }),
      channel("webhook", { pack: "custom", hasOnStart: true }),
      channel("plain", { pack: "custom", hasOnStart: false }),
    ] as AgentManifest["channels"];
    checkChannelSupport(diagnostics, channels);
    expect(diagnostics.items.map((d) => `${d.file}: ${d.message}`)).toEqual([
      'bot/channels/agentic.ts: slackChannel(): reply.mode "agent" posts each finished message here, as "post" does',
      "bot/channels/cursor.ts: cursorAccount: needs a GitHub App on self-hosted Agentfold; its repos are watched (docs/integrations.md#github)",
      "bot/channels/hosted.ts: slackChannel(): engagement is ignored on Agentfold: Cursor's hosted Slack app decides engagement; here the bot wakes on mentions, DMs, threads it is in and watchChannels",
      "bot/channels/hosted.ts: slackChannel(): suggestedPrompts is ignored on Agentfold: suggested prompts are a setting of Cursor's hosted Slack app",
      "bot/channels/quiet.ts: githubChannel(): webhookEvents is ignored on Agentfold: the GitHub App's own event subscription decides what arrives (docs/integrations.md#github)",
      "bot/channels/quiet.ts: githubChannel(): progress.reactions is ignored on Agentfold: progress shows as a commit status and a banner",
      "bot/channels/webhook.ts: onStart is not run by this platform yet",
    ]);
  });
});
