// PUT, DELETE /<slug>/v1/secrets/:name — set or rotate a secret ({ value }), or remove it
import { z } from "zod";
import { defineAgentRoute } from "@/server/http/agent-route";
import { agentSecretKey, db } from "@/server/http/platform";
import { changedBy } from "@/server/secrets/changed-by";
import { removeSecret } from "@/server/secrets/remove-secret";
import { secretNameSchema, secretValueSchema } from "@/server/secrets/schema";
import { setSecret } from "@/server/secrets/set-secret";

export const dynamic = "force-dynamic";

const params = z.object({ slug: z.string(), name: secretNameSchema });

export const PUT = defineAgentRoute({
  action: "agents:deploy",
  params,
  body: z.strictObject({ value: secretValueSchema }),
  handler: async ({ caller, agent, params, body }) => ({
    ok: true,
    ...(await setSecret({
      db: db(),
      key: agentSecretKey(),
      agentId: agent.id,
      name: params.name,
      value: body.value,
      updatedBy: changedBy(caller.principal),
    })),
  }),
});

export const DELETE = defineAgentRoute({
  action: "agents:deploy",
  params,
  handler: async ({ agent, params }) => ({
    ok: true,
    ...(await removeSecret({ db: db(), agentId: agent.id, name: params.name })),
  }),
});
