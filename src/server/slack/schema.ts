// Inputs and outputs of the Slack setup (the dashboard's Slack card, `agentfold slack …`). Secret
// values never appear: only whether each is set.
import { z } from "zod";
import { agentInputSchema } from "@/server/agents/schema";

export const slackSetupInputSchema = agentInputSchema;
export const slackDoctorInputSchema = agentInputSchema.extend({ channelId: z.string().min(1) });

export const slackSecretRoleSchema = z.enum(["botToken", "signingSecret", "appToken"]);

export const slackSetupSecretSchema = z.object({
  name: z.string(),
  role: slackSecretRoleSchema,
  isSet: z.boolean(),
  /** The app token is optional: only Socket Mode needs it. */
  isRequired: z.boolean(),
});

export const slackSetupSchema = z.object({
  /** The channel's id: its file name under bot/channels/. */
  channelId: z.string(),
  eventsUrl: z.string(),
  interactivityUrl: z.string(),
  secrets: z.array(slackSetupSecretSchema),
  /** The Slack app manifest to paste into "Create New App → From a manifest". */
  manifest: z.record(z.string(), z.unknown()),
});

/** Every Slack channel of the agent's active version; none when it has no Slack channel. */
export const slackSetupsSchema = z.object({ slug: z.string(), channels: z.array(slackSetupSchema) });

export const slackCheckStatusSchema = z.enum(["pass", "warn", "fail", "skip"]);

export const slackCheckSchema = z.object({
  name: z.string(),
  /** False only for a failed check (warn and skip are ok). */
  ok: z.boolean(),
  status: slackCheckStatusSchema,
  message: z.string(),
  fix: z.string().optional(),
});

export const slackDoctorResultSchema = z.object({ channelId: z.string(), checks: z.array(slackCheckSchema) });

export type SlackSecretRole = z.infer<typeof slackSecretRoleSchema>;
export type SlackSetup = z.infer<typeof slackSetupSchema>;
export type SlackSetups = z.infer<typeof slackSetupsSchema>;
export type SlackCheckStatus = z.infer<typeof slackCheckStatusSchema>;
export type SlackCheck = z.infer<typeof slackCheckSchema>;
export type SlackDoctorResult = z.infer<typeof slackDoctorResultSchema>;
