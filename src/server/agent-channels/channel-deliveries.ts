// One delivery, one turn: Slack retries an event it did not see acknowledged in 3 s, GitHub
// redelivers webhooks on request. A pack channel claims each delivery id before acting on it;
// a claim already taken answers false. Claims older than a day are dropped as new ones are made
// (neither service retries that late).
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";

export async function claimDelivery(
  db: PrismaClient,
  where: { agentId: string; channelId: string; deliveryId: string },
): Promise<boolean> {
  const { rows } = await poolOf(db).query<{ claimed: boolean }>({
    name: "agentfold-claim-delivery",
    text: `WITH old AS (DELETE FROM channel_deliveries WHERE "receivedAt" < (now() AT TIME ZONE 'UTC') - interval '1 day'),
           claimed AS (INSERT INTO channel_deliveries ("agentId", "channelId", "deliveryId") VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING RETURNING 1)
           SELECT EXISTS (SELECT 1 FROM claimed) AS claimed`,
    values: [where.agentId, where.channelId, where.deliveryId],
  });
  return rows[0]?.claimed === true;
}

/** Gives a claim back when nothing came of the delivery, so the service's retry may act on it. */
export async function releaseDelivery(
  db: PrismaClient,
  where: { agentId: string; channelId: string; deliveryId: string },
): Promise<void> {
  await poolOf(db)
    .query({
      name: "agentfold-release-delivery",
      text: `DELETE FROM channel_deliveries WHERE "agentId" = $1 AND "channelId" = $2 AND "deliveryId" = $3`,
      values: [where.agentId, where.channelId, where.deliveryId],
    })
    .catch(() => undefined);
}
