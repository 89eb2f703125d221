// `validate` says which parts of a channel this platform accepts but does not run, so a
// definition never silently does nothing: `onStart`, and the pack options that have no effect here.
import type { AgentManifest } from "./manifest";
import type { Diagnostics } from "./diagnostics";

/** What a pack's settings leave undone here, one warning each. */
const packWarnings: Record<string, (config: Record<string, unknown>) => string[]> = {
  slack: (config) =>
    (config.reply as { mode?: string } | undefined)?.mode === "agent"
      ? ['slackChannel(): reply.mode "agent" posts each finished message here, as "post" does']
      : [],
  // Cursor pulls events through its own GitHub connection; here a GitHub App sends them by webhook.
  github: (config) =>
    config.hasCursorAccount
      ? [
          "cursorAccount: needs a GitHub App on self-hosted Agentfold; its repos are watched (docs/integrations.md#github)",
        ]
      : [],
};

export function checkChannelSupport(diagnostics: Diagnostics, channels: AgentManifest["channels"]): void {
  for (const channel of channels) {
    const config = channel.config as Record<string, unknown> & { pack?: string; hasOnStart?: boolean };
    for (const warning of (config.pack ? packWarnings[config.pack] : undefined)?.(config) ?? [])
      diagnostics.warning(channel.file, warning);
    if (config.hasOnStart) diagnostics.warning(channel.file, "onStart is not run by this platform yet");
  }
}
