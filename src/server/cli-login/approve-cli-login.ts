// A signed-in member approves a waiting login for one of their teams. The actions are fixed now,
// within their role; the token itself is minted when the CLI collects it (collect-cli-login.ts).
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";
import { findTeamOfUser, type SignedInUser } from "@/server/teams/find-teams-of-user";
import type { TokenAction } from "@/server/tokens/scopes";
import { roleGrants } from "@/shared/roles";
import { collectWindowMs } from "./schema";

/** What the CLI's commands need (deploy, secret, token, eval, chat, call, trajectory), each only
 * where the member's role allows it. */
export const cliTokenActions: TokenAction[] = [
  "agents:read",
  "agents:deploy",
  "sessions:read",
  "sessions:write",
  "approvals:write",
  "tools:call",
  "evals:run",
  "tokens:write",
];

export async function approveCliLogin(options: {
  db: PrismaClient;
  user: SignedInUser;
  code: string;
  teamSlug: string;
  now?: Date;
}) {
  const { db, user, code, teamSlug, now = new Date() } = options;
  const team = await findTeamOfUser({ db, user, team: { slug: teamSlug } });
  if (!team) throw new AppError("not_found", `no team '${teamSlug}' among yours`);
  const actions = cliTokenActions.filter((action) => roleGrants(team.role, action));
  // One statement: of two approvals (or an approval and a denial) racing, one wins; codes are single-use.
  const { count } = await db.cliLogin.updateMany({
    where: { code, approvedAt: null, deniedAt: null, expiresAt: { gt: now } },
    data: {
      approvedById: user.id,
      teamId: team.id,
      actions,
      approvedAt: now,
      expiresAt: new Date(now.getTime() + collectWindowMs),
    },
  });
  if (count === 0) throw new AppError("conflict", `the code ${code} has expired or was already used`);
  return { code, team: { slug: team.slug, name: team.name }, actions };
}
