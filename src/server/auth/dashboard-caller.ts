// A signed-in dashboard user as an API caller: the principal `{ kind: "user" }`, allowed what
// their role in the agent's team allows (src/shared/roles.ts).
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";
import { findTeamsOfUser } from "@/server/teams/find-teams-of-user";
import { isAtLeast, roleGrants } from "@/shared/roles";
import type { Caller } from "./principal";

export async function dashboardCaller({ db, userId }: { db: PrismaClient; userId: string }): Promise<Caller> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, name: true, isInstanceAdmin: true },
  });
  if (!user) throw new AppError("unauthorized", "this sign-in is no longer valid; sign in again");
  const roles = new Map((await findTeamsOfUser({ db, user })).map((team) => [team.id, team.role]));
  const attributes: Record<string, string> = {};
  if (user.email) attributes.email = user.email;
  if (user.name) attributes.name = user.name;
  return {
    principal: { kind: "user", id: user.id, attributes },
    teamIds: [...roles.keys()],
    can: (action, _slug, agentTeamId) => {
      const role = roles.get(agentTeamId);
      return role !== undefined && roleGrants(role, action);
    },
    canReadTaskSessions: async (_slug, agentTeamId) => {
      const role = roles.get(agentTeamId);
      return role !== undefined && isAtLeast(role, "admin");
    },
  };
}

/**
 * Cookies ride along on cross-site requests too; a state-changing request authenticated by the
 * cookie must come from our own pages. Browsers send Origin on every cross-origin POST.
 */
export function assertSameOrigin(request: Request): void {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return;
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none")
    throw new AppError("forbidden", "cross-site requests cannot use the dashboard sign-in; send a bearer token");
  if (origin && originHost(origin) !== request.headers.get("host"))
    throw new AppError("forbidden", "cross-origin requests cannot use the dashboard sign-in; send a bearer token");
}

function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined; // "null" (sandboxed frames, file:) or junk: never our own origin
  }
}
