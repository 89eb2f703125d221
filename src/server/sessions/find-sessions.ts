// GET /<slug>/v1/session: the caller's sessions on this agent, newest activity first, one page
// at a time (the cursor is the last session's id); with every task session of the agent too for
// callers who may read them (get-readable-session.ts).
import type { Prisma, PrismaClient } from "@prisma/client";
import { ownerOf, type Principal } from "@/server/auth/principal";
import { ownedSessionSelect } from "./get-owned-session";
import { describeSession } from "./describe-session";
import type { ListSessionsQuery, SessionSummary } from "./schema";

export async function findSessions(options: {
  db: PrismaClient;
  agentId: string;
  principal: Principal;
  query: ListSessionsQuery;
  includesTaskSessions?: boolean;
}): Promise<{ items: SessionSummary[]; nextCursor: string | null }> {
  const { db, agentId, principal, query, includesTaskSessions = false } = options;
  const mine = ownerOf(principal);
  const where: Prisma.SessionWhereInput = {
    agentId,
    ...(includesTaskSessions ? { AND: [{ OR: [mine, { mode: "task" }] }] } : mine),
    ...(query.channel ? { channelId: query.channel } : {}),
    ...(query.mode ? { mode: query.mode } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.q ? { OR: [{ id: { contains: query.q } }, { title: { contains: query.q, mode: "insensitive" } }] } : {}),
  };
  const rows = await db.session.findMany({
    where,
    select: ownedSessionSelect,
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    ...(query.cursor ? { cursor: { id: query.cursor }, skip: 1 } : {}),
  });
  const page = rows.slice(0, query.limit);
  return { items: page.map(describeSession), nextCursor: rows.length > query.limit ? page.at(-1)!.id : null };
}
