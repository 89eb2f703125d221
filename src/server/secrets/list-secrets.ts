// An agent's secrets by name, with when and by whom each was last set and whether the active
// version uses it (declared, or read by its Slack or GitHub channel), and the declared names that
// are not set. Values are never read here.
import type { PrismaClient } from "@prisma/client";
import type { SecretList } from "./schema";
import { declaredSecretNames } from "./declared-secret-names";
import { packSecretNames } from "./pack-secret-names";

export async function listSecrets({ db, agentId }: { db: PrismaClient; agentId: string }): Promise<SecretList> {
  const [agent, rows] = await Promise.all([
    db.agent.findUnique({ where: { id: agentId }, select: { activeVersion: { select: { manifest: true } } } }),
    db.agentSecret.findMany({
      where: { agentId },
      orderBy: { name: "asc" },
      select: { name: true, updatedAt: true, updatedBy: true },
    }),
  ]);
  const declared = declaredSecretNames(agent?.activeVersion?.manifest);
  const used = new Set([...declared, ...packSecretNames(agent?.activeVersion?.manifest)]);
  const isSet = new Set(rows.map((row) => row.name));
  return {
    secrets: rows.map((row) => ({
      name: row.name,
      updatedAt: row.updatedAt.toISOString(),
      updatedBy: row.updatedBy,
      isDeclared: used.has(row.name),
    })),
    declared,
    missing: declared.filter((name) => !isSet.has(name)),
  };
}
