// tRPC: the dashboard's Slack card. Members read what setting up the Slack app takes (URLs,
// which secrets are set, the manifest); the doctor uses the secrets' values against Slack, so it
// needs the role that manages them (admin), as the secrets procedures do.
import { env } from "@/env";
import { agentSecretKey } from "@/server/http/platform";
import { packSecretReader } from "@/server/secrets/read-pack-secrets";
import { router, teamProcedure } from "@/server/trpc/init";
import { checkSlackSetup } from "./check-slack-setup";
import { listSlackSetups } from "./list-slack-setups";
import {
  type SlackSetups,
  slackDoctorInputSchema,
  slackDoctorResultSchema,
  slackSetupInputSchema,
  slackSetupsSchema,
} from "./schema";

export const slackRouter = router({
  setup: teamProcedure("member")
    .input(slackSetupInputSchema)
    .output(slackSetupsSchema)
    .query(async ({ ctx, input }): Promise<SlackSetups> => {
      const { agentId: _, ...setups } = await listSlackSetups({
        db: ctx.db,
        slug: input.slug,
        teamId: ctx.team.id,
        publicUrl: env().publicUrl,
      });
      return setups;
    }),
  doctor: teamProcedure("admin")
    .input(slackDoctorInputSchema)
    .output(slackDoctorResultSchema)
    .mutation(({ ctx, input }) =>
      checkSlackSetup({
        db: ctx.db,
        slug: input.slug,
        teamId: ctx.team.id,
        channelId: input.channelId,
        publicUrl: env().publicUrl,
        // Read fresh: the doctor is run right after a secret is set.
        secrets: packSecretReader({ db: ctx.db, key: agentSecretKey(), maxAgeMs: 0 }),
        slackApiUrl: env().SLACK_API_URL,
      }),
    ),
});
