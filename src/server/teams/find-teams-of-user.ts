// The teams a user belongs to, with their role in each. The instance admin acts as owner of every
// team (documented in docs/dashboard.md).
import type { PrismaClient, Role } from "@prisma/client";

export type TeamOfUser = { id: string; slug: string; name: string; role: Role };

export async function findTeamsOfUser({ db, userId }: { db: PrismaClient; userId: string }): Promise<TeamOfUser[]> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { isInstanceAdmin: true } });
  if (!user) return [];
  const memberships = await db.membership.findMany({ where: { userId }, select: { role: true, team: { select: { id: true, slug: true, name: true } } } });
  const teams = new Map<string, TeamOfUser>(memberships.map((m) => [m.team.id, { ...m.team, role: m.role }]));
  if (user.isInstanceAdmin) {
    for (const team of await db.team.findMany({ select: { id: true, slug: true, name: true } })) teams.set(team.id, { ...team, role: "owner" });
  }
  return [...teams.values()].sort((a, b) => a.name.localeCompare(b.name));
}
