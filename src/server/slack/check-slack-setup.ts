// The doctor for one Slack channel of a deployed agent: its secrets read as the platform reads
// them (packSecretReader), then every check of slackDoctor.
import type { PackSecretReader } from "@/server/secrets/read-pack-secrets";
import { slackDoctor } from "./doctor";
import { getSlackSetup } from "./get-slack-setup";
import type { SlackSetupQuery } from "./list-slack-setups";
import type { SlackDoctorResult } from "./schema";

export async function checkSlackSetup(
  options: SlackSetupQuery & {
    channelId?: string;
    secrets: PackSecretReader;
    slackApiUrl?: string;
    fetch?: typeof fetch;
  },
): Promise<SlackDoctorResult> {
  const setup = await getSlackSetup(options);
  const name = (role: string) => setup.secrets.find((secret) => secret.role === role)!.name;
  const names = { botToken: name("botToken"), signingSecret: name("signingSecret"), appToken: name("appToken") };
  const values = await options.secrets(setup.agentId, Object.values(names));
  const checks = await slackDoctor(
    {
      slug: options.slug,
      names,
      botToken: values[names.botToken],
      signingSecret: values[names.signingSecret],
      appToken: values[names.appToken],
      slackApiUrl: options.slackApiUrl,
      eventsUrl: setup.eventsUrl,
      interactivityUrl: setup.interactivityUrl,
    },
    options.fetch ? { fetch: options.fetch } : {},
  );
  return { channelId: setup.channelId, checks };
}
