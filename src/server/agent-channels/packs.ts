// The prebuilt channel packs, Slack and GitHub (docs/integrations.md): the platform answers their
// routes itself — verifying the service's signature with the agent's own secrets, which it reads
// and the sandbox never sees — and delivers their sessions' events back (a reply in the thread, a
// PR comment, a commit status). Only GitHub's event handlers (onPullRequest …) are agent code.
import type { PackChannel, PackDeliveries, PackDeliveryServices, PackRoute } from "./pack-types";
import { githubDelivery } from "@/server/github/github-delivery";
import { serveGitHub } from "@/server/github/serve-github";
import { slackDelivery } from "@/server/slack/slack-delivery";
import { serveSlack } from "@/server/slack/serve-slack";

export const packRoutes: Record<string, PackRoute> = { slack: serveSlack, github: serveGitHub };

export function packDeliveries(services: PackDeliveryServices): PackDeliveries {
  return { slack: slackDelivery(services), github: githubDelivery(services) };
}

/** The pack a manifest channel is, if any. */
export function packOf(channel: PackChannel): string | undefined {
  const pack = (channel.config as { pack?: unknown }).pack;
  return typeof pack === "string" && pack in packRoutes ? pack : undefined;
}
