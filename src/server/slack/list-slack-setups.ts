// What setting up each Slack channel of an agent's active version takes: the URLs Slack sends to,
// the agent secrets the channel reads (set or not; never their values) and the app manifest.
import type { PrismaClient } from "@prisma/client";
import type { AgentManifest } from "@/agents/loader/manifest";
import { slackEnvNames } from "@/agents/sdk/channels/slack";
import { AppError } from "@/server/errors";
import { slackAppManifest } from "./app-manifest";
import type { SlackSecretRole, SlackSetups } from "./schema";

export type SlackSetupQuery = {
  db: PrismaClient;
  slug: string;
  /** Only within this team, by id (the dashboard) or slug (the CLI's --team). */
  teamId?: string;
  teamSlug?: string;
  /** The address Slack reaches this installation at (env.ts publicUrl). */
  publicUrl: string;
  /** A manifest for Socket Mode (events over the app token's WebSocket) instead of request URLs. */
  socketMode?: boolean;
};

const roles: SlackSecretRole[] = ["botToken", "signingSecret", "appToken"];

export async function listSlackSetups(query: SlackSetupQuery): Promise<SlackSetups & { agentId: string }> {
  const { db, slug, teamId, teamSlug, publicUrl } = query;
  const agent = await db.agent.findFirst({
    where: { slug, ...(teamId ? { teamId } : {}), ...(teamSlug ? { team: { slug: teamSlug } } : {}) },
    select: { id: true, name: true, description: true, activeVersion: { select: { manifest: true } } },
  });
  if (!agent)
    throw new AppError(
      "not_found",
      `no agent '${slug}'${teamSlug ? ` in team '${teamSlug}'` : teamId ? " in this team" : ""}`,
    );
  const manifest = agent.activeVersion?.manifest as AgentManifest | null | undefined;
  const channels = (manifest?.channels ?? []).filter(
    (channel) => (channel.config as { pack?: unknown } | null)?.pack === "slack",
  );
  const names = channels.map((channel) => slackEnvNames(channel.config as { envPrefix?: string }));
  const set = await db.agentSecret.findMany({
    where: { agentId: agent.id, name: { in: names.flatMap((n) => Object.values(n)) } },
    select: { name: true },
  });
  const isSet = new Set(set.map((row) => row.name));
  const base = publicUrl.replace(/\/+$/, "");
  return {
    agentId: agent.id,
    slug,
    channels: channels.map((channel, i) => {
      const channelUrl = `${base}/${slug}/v1/channels/${encodeURIComponent(channel.name)}`;
      const eventsUrl = `${channelUrl}/events`;
      const interactivityUrl = `${channelUrl}/interactivity`;
      return {
        channelId: channel.name,
        eventsUrl,
        interactivityUrl,
        secrets: roles.map((role) => ({
          name: names[i]![role],
          role,
          isSet: isSet.has(names[i]![role]),
          isRequired: role !== "appToken",
        })),
        manifest: slackAppManifest({
          agentName: agent.name || slug,
          botName: slug,
          description: agent.description ?? undefined,
          eventsUrl,
          interactivityUrl,
          socketMode: query.socketMode ?? false,
        }),
      };
    }),
  };
}
