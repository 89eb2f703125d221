// The id of the agent `slug` (slugs are unique on the instance), optionally only within a team
// given by id or slug; not_found otherwise, the same answer for another team's agent.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";

export async function getAgentId(options: {
  db: PrismaClient;
  slug: string;
  teamId?: string;
  teamSlug?: string;
}): Promise<string> {
  const { db, slug, teamId, teamSlug } = options;
  const agent = await db.agent.findFirst({
    where: { slug, ...(teamId ? { teamId } : {}), ...(teamSlug ? { team: { slug: teamSlug } } : {}) },
    select: { id: true },
  });
  if (!agent)
    throw new AppError(
      "not_found",
      `no agent '${slug}'${teamSlug ? ` in team '${teamSlug}'` : teamId ? " in this team" : ""}`,
    );
  return agent.id;
}
