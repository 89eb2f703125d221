// The secret names a version's Slack and GitHub channels read (docs/integrations.md): the
// platform reads them itself, so they are in use without a `secretNames` declaration — and, not
// being declared, never reach the sandbox.
import type { AgentManifest } from "@/agents/loader/manifest";
import { slackEnvNames } from "@/agents/sdk/channels/slack";
import { githubSecretNames } from "@/server/github/github-pack";

export function packSecretNames(manifest: unknown): string[] {
  const channels = (manifest as Partial<AgentManifest> | null | undefined)?.channels ?? [];
  const names = channels.flatMap((channel) => {
    const config = channel.config as { pack?: string; envPrefix?: string };
    if (config.pack === "slack") return Object.values(slackEnvNames(config));
    if (config.pack === "github") return Object.values(githubSecretNames);
    return [];
  });
  return [...new Set(names)].sort();
}
