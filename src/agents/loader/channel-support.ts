// `validate` says which parts of a channel this platform accepts but does not run yet, so a
// definition never silently does nothing: `onStart`, and the Slack and GitHub packs.
import type { AgentManifest } from "./manifest";
import type { Diagnostics } from "./diagnostics";

const packs: Record<string, string> = {
  slack: "slackChannel(): this platform does not receive Slack events or post to Slack yet",
  github: "githubChannel(): this platform does not receive GitHub webhooks or post to GitHub yet",
};

export function checkChannelSupport(diagnostics: Diagnostics, channels: AgentManifest["channels"]): void {
  for (const channel of channels) {
    const config = channel.config as { pack?: string; hasOnStart?: boolean };
    const pack = config.pack ? packs[config.pack] : undefined;
    if (pack) diagnostics.warning(channel.file, pack);
    if (config.hasOnStart) diagnostics.warning(channel.file, "onStart is not run by this platform yet");
  }
}
