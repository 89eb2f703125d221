// tRPC: an agent's secrets for the dashboard. Admins (the agents:deploy role) list, set and
// remove them; no procedure ever returns a value.
import { z } from "zod";
import { getAgentId } from "@/server/agents/get-agent-id";
import { agentSlugSchema } from "@/server/agents/schema";
import { agentSecretKey } from "@/server/http/platform";
import { router, teamProcedure } from "@/server/trpc/init";
import { changedBy } from "./changed-by";
import { listSecrets } from "./list-secrets";
import { removeSecret } from "./remove-secret";
import { secretListSchema, secretNameSchema, secretValueSchema, setSecretResultSchema } from "./schema";
import { setSecret } from "./set-secret";

const agentInput = z.object({ slug: agentSlugSchema });

export const secretsRouter = router({
  list: teamProcedure("admin")
    .input(agentInput)
    .output(secretListSchema)
    .query(async ({ ctx, input }) => listSecrets({ db: ctx.db, agentId: await getAgentId({ db: ctx.db, slug: input.slug, teamId: ctx.team.id }) })),
  set: teamProcedure("admin")
    .input(agentInput.extend({ name: secretNameSchema, value: secretValueSchema }))
    .output(setSecretResultSchema)
    .mutation(async ({ ctx, input }) => {
      const agentId = await getAgentId({ db: ctx.db, slug: input.slug, teamId: ctx.team.id });
      const updatedBy = changedBy({ kind: "user", id: ctx.user.id, attributes: { ...(ctx.user.email ? { email: ctx.user.email } : {}), ...(ctx.user.name ? { name: ctx.user.name } : {}) } });
      return setSecret({ db: ctx.db, key: agentSecretKey(), agentId, name: input.name, value: input.value, updatedBy });
    }),
  remove: teamProcedure("admin")
    .input(agentInput.extend({ name: secretNameSchema }))
    .output(z.object({ name: z.string() }))
    .mutation(async ({ ctx, input }) => removeSecret({ db: ctx.db, agentId: await getAgentId({ db: ctx.db, slug: input.slug, teamId: ctx.team.id }), name: input.name })),
});
