// tRPC: an agent's secrets for the dashboard. Admins (the agents:deploy role) list, set and
// remove them; no procedure ever returns a value.
import { getAgentId } from "@/server/agents/get-agent-id";
import { agentSecretKey } from "@/server/http/platform";
import { router, teamProcedure } from "@/server/trpc/init";
import { changedBy } from "./changed-by";
import { listSecrets } from "./list-secrets";
import { removeSecret } from "./remove-secret";
import {
  agentSecretsInputSchema,
  removeSecretInputSchema,
  removeSecretResultSchema,
  secretListSchema,
  setSecretInputSchema,
  setSecretResultSchema,
} from "./schema";
import { setSecret } from "./set-secret";

export const secretsRouter = router({
  list: teamProcedure("admin")
    .input(agentSecretsInputSchema)
    .output(secretListSchema)
    .query(async ({ ctx, input }) =>
      listSecrets({ db: ctx.db, agentId: await getAgentId({ db: ctx.db, slug: input.slug, teamId: ctx.team.id }) }),
    ),
  set: teamProcedure("admin")
    .input(setSecretInputSchema)
    .output(setSecretResultSchema)
    .mutation(async ({ ctx, input }) => {
      const agentId = await getAgentId({ db: ctx.db, slug: input.slug, teamId: ctx.team.id });
      const updatedBy = changedBy({
        kind: "user",
        id: ctx.user.id,
        attributes: {
          ...(ctx.user.email ? { email: ctx.user.email } : {}),
          ...(ctx.user.name ? { name: ctx.user.name } : {}),
        },
      });
      return setSecret({ db: ctx.db, key: agentSecretKey(), agentId, name: input.name, value: input.value, updatedBy });
    }),
  remove: teamProcedure("admin")
    .input(removeSecretInputSchema)
    .output(removeSecretResultSchema)
    .mutation(async ({ ctx, input }) =>
      removeSecret({
        db: ctx.db,
        agentId: await getAgentId({ db: ctx.db, slug: input.slug, teamId: ctx.team.id }),
        name: input.name,
      }),
    ),
});
