import { describe, expect, it } from "vitest";
import { checkChannelSupport } from "./channel-support";
import { Diagnostics } from "./diagnostics";
import type { AgentManifest } from "./manifest";

const channel = (name: string, config: object) => ({ name, file: `bot/channels/${name}.ts`, routes: [], config });

describe("validate's check of channel parts the platform does not run", () => {
  it("warns about the Slack and GitHub packs and onStart, not about custom channels", () => {
    const diagnostics = new Diagnostics();
    const channels = [
      channel("slack", { pack: "slack" }),
      channel("github", { pack: "github" }),
      channel("webhook", { pack: "custom", hasOnStart: true }),
      channel("plain", { pack: "custom", hasOnStart: false }),
    ] as AgentManifest["channels"];
    checkChannelSupport(diagnostics, channels);
    expect(diagnostics.items.map((d) => `${d.file}: ${d.message}`)).toEqual([
      "bot/channels/slack.ts: slackChannel(): this platform does not receive Slack events or post to Slack yet",
      "bot/channels/github.ts: githubChannel(): this platform does not receive GitHub webhooks or post to GitHub yet",
      "bot/channels/webhook.ts: onStart is not run by this platform yet",
    ]);
  });
});
