// The signed-in user's most recent sessions across every agent, for the home page.
import type { PrismaClient } from "@prisma/client";

export async function findRecentSessions({
  db,
  userId,
  limit = 10,
}: {
  db: PrismaClient;
  userId: string;
  limit?: number;
}) {
  const sessions = await db.session.findMany({
    where: { ownerKind: "user", ownerId: userId },
    orderBy: { updatedAt: "desc" },
    take: limit,
    select: {
      id: true,
      title: true,
      status: true,
      mode: true,
      updatedAt: true,
      agent: { select: { slug: true, name: true } },
    },
  });
  return sessions.map(({ agent, ...session }) => ({ ...session, agentSlug: agent.slug, agentName: agent.name }));
}
