// The teams a user belongs to, with their role in each. The instance admin acts as owner of every
// team (documented in docs/dashboard.md).
import type { PrismaClient, Role } from "@prisma/client";

export type TeamOfUser = { id: string; slug: string; name: string; role: Role };

export type SignedInUser = { id: string; isInstanceAdmin: boolean };

/** `user` comes from the caller's own lookup of the signed-in user (one per request). */
export async function findTeamsOfUser({ db, user }: { db: PrismaClient; user: SignedInUser }): Promise<TeamOfUser[]> {
  const memberships = await db.membership.findMany({
    where: { userId: user.id },
    select: { role: true, team: { select: { id: true, slug: true, name: true } } },
  });
  const teams = new Map<string, TeamOfUser>(memberships.map((m) => [m.team.id, { ...m.team, role: m.role }]));
  if (user.isInstanceAdmin) {
    for (const team of await db.team.findMany({ select: { id: true, slug: true, name: true } }))
      teams.set(team.id, { ...team, role: "owner" });
  }
  return [...teams.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** One team of the user (by slug or id), with their role there: what findTeamsOfUser would list
 * for it, in one query. */
export async function findTeamOfUser({
  db,
  user,
  team,
}: {
  db: PrismaClient;
  user: SignedInUser;
  team: { slug: string } | { id: string };
}): Promise<TeamOfUser | undefined> {
  const row = await db.team.findUnique({
    where: "slug" in team ? { slug: team.slug } : { id: team.id },
    select: { id: true, slug: true, name: true, memberships: { where: { userId: user.id }, select: { role: true } } },
  });
  // The instance admin is an owner of every team.
  const role = user.isInstanceAdmin ? "owner" : row?.memberships[0]?.role;
  return row && role ? { id: row.id, slug: row.slug, name: row.name, role } : undefined;
}
