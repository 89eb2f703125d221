// `agentfold/channels/slack`: the prebuilt Slack channel
// (docs/agent-folders.md, "The `define*` helpers"). Wakes on mentions, DMs and watched channels,
// answers in threads; a thread is one session, admission is coalesce.
import { z } from "zod";
import type { Descriptor } from "../descriptor";
import type { Principal } from "../types";
import { define, nonEmptyString } from "../validation";

// Also here: Cursor projects reach it from the Slack pack's module as well as from /channels.
export { buildToolApprovalEvents } from "../tool-approvals";

/** "agent": the model decides when to post updates. [inferred name] */
export type SlackReplyMode = "post" | "stream" | "agent";

export type SlackChannelConfig = {
  /** Reads `<PREFIX>_SLACK_BOT_TOKEN` and `<PREFIX>_SLACK_APP_TOKEN`, so two bots can share a host. */
  envPrefix?: string;
  reply?: {
    mode?: SlackReplyMode;
    /** A status chip under the thread: reasoning, running tools' names, rotating idle lines. */
    status?: { reasoning?: boolean; tools?: boolean; idle?: string[] };
  };
  /** Give each top-level DM its own session (by default one DM is one session). */
  continuation?: "slack.dmthread/v2";
  /** Approve / Deny (and Connect) buttons in the thread. */
  toolApprovals?: boolean;
  /** [inferred] Channel ids (`C…`) where every new top-level post wakes the agent, mention or not. */
  watchChannels?: string[];
  /** Settings of Cursor's hosted Slack app: accepted, and ignored on Agentfold. */
  engagement?: unknown;
  suggestedPrompts?: unknown;
  suggestedPromptsTitle?: unknown;
};

export type SlackChannelDescriptor = Descriptor<
  "channel",
  Omit<SlackChannelConfig, "reply" | "toolApprovals"> & {
    pack: "slack";
    reply: { mode: SlackReplyMode; status?: { reasoning?: boolean; tools?: boolean; idle?: string[] } };
    toolApprovals: boolean;
  }
>;

const slackConfigSchema = z
  .strictObject({
    envPrefix: z
      .string()
      .regex(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/, 'must be an upper-case env name prefix like "TRIAGE"')
      .optional(),
    reply: z
      .strictObject({
        mode: z.enum(["post", "stream", "agent"], { error: 'expected "post", "stream" or "agent"' }).default("post"),
        status: z
          .strictObject({
            reasoning: z.boolean().optional(),
            tools: z.boolean().optional(),
            idle: z.array(nonEmptyString).optional(),
          })
          .optional(),
      })
      .default({ mode: "post" }),
    continuation: z.literal("slack.dmthread/v2", { error: 'expected "slack.dmthread/v2"' }).optional(),
    toolApprovals: z.boolean().default(false),
    // Cursor's hosted Slack app settings: accepted so Cursor projects validate, ignored here (validate says so).
    engagement: z.unknown().optional(),
    suggestedPrompts: z.unknown().optional(),
    suggestedPromptsTitle: z.unknown().optional(),
    watchChannels: z
      .array(z.string().regex(/^[CG][A-Z0-9]+$/, 'expected a Slack channel id like "C0123ABCD"'))
      .optional(),
  })
  .transform((config) => ({ ...config, pack: "slack" as const }));

export function slackChannel(config: SlackChannelConfig = {}): SlackChannelDescriptor {
  return define("channel", "slackChannel", slackConfigSchema, config);
}

/** The agent secrets a Slack channel reads (docs/integrations.md): the bot token, the signing
 * secret that verifies Events API requests, and the app token that opens Socket Mode. */
export function slackEnvNames(config: { envPrefix?: string }): {
  botToken: string;
  signingSecret: string;
  appToken: string;
} {
  const prefix = config.envPrefix ? `${config.envPrefix}_` : "";
  return {
    botToken: `${prefix}SLACK_BOT_TOKEN`,
    signingSecret: `${prefix}SLACK_SIGNING_SECRET`,
    appToken: `${prefix}SLACK_APP_TOKEN`,
  };
}

/** Run the turn as the Slack user who wrote (BDK's helper): stable ids, Slack's ids as attributes,
 * the same principal the platform's Slack pack gives a thread's starter (docs/integrations.md). */
export function defaultSlackAuth(ctx: {
  user?: string | { id: string; team_id?: string; teamId?: string };
  team?: string | { id: string };
  teamId?: string;
  userId?: string;
}): Principal {
  const user = typeof ctx.user === "string" ? ctx.user : (ctx.user?.id ?? ctx.userId);
  const team =
    ctx.teamId ??
    (typeof ctx.team === "string" ? ctx.team : ctx.team?.id) ??
    (typeof ctx.user === "object" ? (ctx.user.team_id ?? ctx.user.teamId) : undefined);
  if (!user || !team) throw new Error("defaultSlackAuth: the context names no Slack user and team");
  return { kind: "user", id: `slack:${team}:${user}`, attributes: { user_id: user, team_id: team } };
}
