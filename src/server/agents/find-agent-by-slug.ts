// The agent a /<slug>/v1 request addresses. Every API request looks it up (sometimes twice: the
// auth chain, then the scope check), so it is one prepared statement, not a Prisma query.
import type { PrismaClient } from "@prisma/client";
import { poolOf } from "@/server/db";

export type AgentBySlug = {
  id: string;
  slug: string;
  teamId: string;
  name: string;
  description: string | null;
  activeVersionId: string | null;
  allowAnonymous: boolean;
};

export async function findAgentBySlug(db: PrismaClient, slug: string): Promise<AgentBySlug | undefined> {
  const { rows } = await poolOf(db).query<AgentBySlug>({
    name: "agentfold-agent-by-slug",
    text: `SELECT id, slug, "teamId", name, description, "activeVersionId", "allowAnonymous" FROM "Agent" WHERE slug = $1`,
    values: [slug],
  });
  return rows[0];
}
