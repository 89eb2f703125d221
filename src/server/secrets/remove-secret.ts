// Removes an agent's secret; the delete and its notice are one statement, as in setSecret.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";
import { AppError } from "@/server/errors";
import { assertSecretInput } from "./assert-secret-input";
import { secretsChannel } from "@/server/channels";

export async function removeSecret({
  db,
  agentId,
  name,
}: {
  db: PrismaClient;
  agentId: string;
  name: string;
}): Promise<{ name: string }> {
  assertSecretInput({ name });
  const { rowCount } = await poolOf(db).query({
    text: `WITH gone AS (DELETE FROM agent_secrets WHERE "agentId" = $1 AND name = $2 RETURNING 1)
           SELECT pg_notify($3, $1) FROM gone`,
    values: [agentId, name, secretsChannel.name],
  });
  if (!rowCount) throw new AppError("not_found", `no secret ${name} on this agent`);
  return { name };
}
