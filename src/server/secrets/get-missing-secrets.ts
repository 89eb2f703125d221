// Which of `names` the deployed agent `slug` has not set (for `agentfold info` on a folder that
// may differ from what is deployed); not_found when there is no such agent.
import type { PrismaClient } from "@prisma/client";
import { getAgentId } from "@/server/agents/get-agent-id";

export async function getMissingSecrets({
  db,
  slug,
  names,
}: {
  db: PrismaClient;
  slug: string;
  names: string[];
}): Promise<string[]> {
  const agentId = await getAgentId({ db, slug });
  const set = await db.agentSecret.findMany({ where: { agentId, name: { in: names } }, select: { name: true } });
  const isSet = new Set(set.map((row) => row.name));
  return names.filter((name) => !isSet.has(name));
}
