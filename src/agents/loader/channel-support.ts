// `validate` says which parts of a folder this platform accepts but does not run, so a definition
// never silently does nothing: a channel's `onStart`, the pack options that have no effect here,
// and extension mounts.
import type { AgentLayout } from "./layout";
import type { AgentManifest } from "./manifest";
import type { Diagnostics } from "./diagnostics";
import type { FieldLines } from "./source-lines";

/** Options of Cursor's hosted surfaces that change nothing here: accepted, each named once. */
const ignored: Record<string, Record<string, string>> = {
  slack: {
    engagement:
      "Cursor's hosted Slack app decides engagement; here the bot wakes on mentions, DMs, threads it is in and watchChannels",
    suggestedPrompts: "suggested prompts are a setting of Cursor's hosted Slack app",
    suggestedPromptsTitle: "suggested prompts are a setting of Cursor's hosted Slack app",
  },
  github: {
    webhookEvents: "the GitHub App's own event subscription decides what arrives (docs/integrations.md#github)",
  },
};

const ignoredWarnings = (helper: string, pack: string, config: Record<string, unknown>) =>
  Object.entries(ignored[pack] ?? {})
    .filter(([field]) => config[field] !== undefined)
    .map(([field, why]) => `${helper}(): ${field} is ignored on Agentfold: ${why}`);

/** What a pack's settings leave undone here, one warning each. */
const packWarnings: Record<string, (config: Record<string, unknown>) => string[]> = {
  slack: (config) => [
    ...((config.reply as { mode?: string } | undefined)?.mode === "agent"
      ? ['slackChannel(): reply.mode "agent" posts each finished message here, as "post" does']
      : []),
    ...ignoredWarnings("slackChannel", "slack", config),
  ],
  // Cursor pulls events through its own GitHub connection; here a GitHub App sends them by webhook.
  github: (config) => [
    ...(config.hasCursorAccount
      ? [
          "cursorAccount: needs a GitHub App on self-hosted Agentfold; its repos are watched (docs/integrations.md#github)",
        ]
      : []),
    ...ignoredWarnings("githubChannel", "github", config),
    ...((config.progress as { reactions?: unknown } | undefined)?.reactions !== undefined
      ? ["githubChannel(): progress.reactions is ignored on Agentfold: progress shows as a commit status and a banner"]
      : []),
  ],
};

const onStartIgnored =
  "defineChannel(): onStart is ignored on Agentfold: a channel here is never started — its routes and events " +
  "run in sandboxes started on demand; do start-up work in a schedule, or on a handler's first call";

// `onStart: …`, `onStart(ctx) {`, `async onStart(`, or the shorthand `{ onStart }`.
const onStartLine = /\bonStart\b\s*(?:[:(,}]|$)/;

/** `lineOf` places each warning on the line of the option it is about. */
export function checkChannelSupport(
  diagnostics: Diagnostics,
  channels: AgentManifest["channels"],
  lineOf?: FieldLines,
): void {
  for (const channel of channels) {
    const config = channel.config as Record<string, unknown> & { pack?: string; hasOnStart?: boolean };
    for (const warning of (config.pack ? packWarnings[config.pack] : undefined)?.(config) ?? [])
      diagnostics.warning(channel.file, warning);
    if (config.hasOnStart) diagnostics.warning(channel.file, onStartIgnored, lineOf?.(channel.file, onStartLine));
  }
}

const extensionIgnored =
  "extension mounts are ignored on Agentfold: nothing this file contributes (tools, skills, connections, hooks …) " +
  "is mounted; copy what the agent needs into bot/ (docs/compatibility.md)";

/** One warning per `extensions/<ns>.ts` that loaded: one that failed already has its error. */
export function checkExtensionMounts(diagnostics: Diagnostics, layout: AgentLayout, lineOf?: FieldLines): void {
  for (const { file } of layout.extensions) {
    if (diagnostics.items.some((item) => item.file === file && item.level === "error")) continue;
    diagnostics.warning(file, extensionIgnored, lineOf?.(file, /\bexport\s+default\b/));
  }
}
