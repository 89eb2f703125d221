// A team's bearer tokens, newest first: never the secret, only its first characters.
import type { PrismaClient } from "@prisma/client";

export async function findTokens({
  db,
  teamId,
  createdById,
}: {
  db: PrismaClient;
  teamId: string;
  createdById?: string;
}) {
  const tokens = await db.apiToken.findMany({
    where: { teamId, ...(createdById ? { createdById } : {}) },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      name: true,
      prefix: true,
      agentSlugs: true,
      actions: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
      createdAt: true,
      createdBy: { select: { email: true, name: true } },
    },
  });
  return tokens.map(({ createdBy, ...token }) => ({
    ...token,
    createdBy: createdBy ? (createdBy.name ?? createdBy.email) : "the CLI",
  }));
}
