// A Slack pack channel's setup from the command line, straight against this installation's
// database (docs/integrations.md, "Slack"):
//   agentfold slack manifest desk [--channel slack] [--socket-mode]   the app manifest to paste
//   agentfold slack doctor desk [--channel slack] [--json]            every check; exit 1 on a failure
import { secretKey } from "@/env";
import { checkSlackSetup } from "@/server/slack/check-slack-setup";
import { getSlackSetup } from "@/server/slack/get-slack-setup";
import type { SlackCheck, SlackCheckStatus } from "@/server/slack/schema";
import { packSecretReader } from "@/server/secrets/read-pack-secrets";
import { database } from "./admin";
import { defineCommand } from "@/cli/command";
import { jsonFlag, teamSlugFlag } from "@/cli/flags";

export type SlackCommand = {
  verb: "doctor" | "manifest";
  slug: string;
  channel?: string;
  team?: string;
  json?: boolean;
  socketMode?: boolean;
};

export async function slackCommand(command: SlackCommand): Promise<number> {
  const { db, config } = database();
  try {
    const query = {
      db,
      slug: command.slug,
      ...(command.team ? { teamSlug: command.team } : {}),
      publicUrl: config.publicUrl,
      ...(command.channel ? { channelId: command.channel } : {}),
    };
    if (command.verb === "manifest") {
      const setup = await getSlackSetup({ ...query, socketMode: command.socketMode ?? false });
      console.log(JSON.stringify(setup.manifest, null, 2));
      return 0;
    }
    const result = await checkSlackSetup({
      ...query,
      secrets: packSecretReader({ db, key: secretKey(config), maxAgeMs: 0 }),
      slackApiUrl: config.SLACK_API_URL,
    });
    if (command.json) console.log(JSON.stringify(result, null, 2));
    else console.log(describeChecks(command.slug, result.channelId, result.checks));
    return result.checks.every((check) => check.ok) ? 0 : 1;
  } finally {
    await db.$disconnect();
  }
}

const marks: Record<SlackCheckStatus, string> = { pass: "✓", warn: "!", fail: "✗", skip: "–" };

function describeChecks(slug: string, channelId: string, checks: SlackCheck[]): string {
  const failed = checks.filter((check) => !check.ok).length;
  return [
    `Slack channel '${channelId}' of ${slug}:`,
    ...checks.flatMap((check) => [
      `  ${marks[check.status]} ${check.name}: ${check.message}`,
      ...(check.fix ? [`      fix: ${check.fix}`] : []),
    ]),
    failed ? `${failed} check${failed === 1 ? "" : "s"} failed` : "ready",
  ].join("\n");
}

const slackArgs = [{ name: "agent", required: true, description: "The agent's slug" }];
const channelFlag = {
  type: "string",
  value: "<id>",
  description: "The Slack channel's id, when the agent has several",
} as const;

export const slackCommands = [
  defineCommand({
    name: "slack manifest",
    group: "integrations",
    summary:
      "The Slack app manifest for the agent's Slack channel (JSON to paste into Create New App → From a manifest)",
    args: slackArgs,
    flags: {
      channel: channelFlag,
      "socket-mode": { type: "boolean", description: "An app that connects over Socket Mode (no public URL)" },
      team: teamSlugFlag,
    },
    examples: ["agentfold slack manifest desk --socket-mode > manifest.json"],
    run: ({ flags, args }) =>
      slackCommand({
        verb: "manifest",
        slug: args[0]!,
        channel: flags.channel,
        team: flags.team,
        socketMode: flags["socket-mode"],
      }),
  }),
  defineCommand({
    name: "slack doctor",
    group: "integrations",
    summary: "Check the channel's tokens, scopes, signing secret and URLs; exit 1 when a check fails",
    args: slackArgs,
    flags: { channel: channelFlag, json: jsonFlag, team: teamSlugFlag },
    examples: ["agentfold slack doctor desk"],
    run: ({ flags, args }) =>
      slackCommand({ verb: "doctor", slug: args[0]!, channel: flags.channel, team: flags.team, json: flags.json }),
  }),
];
