// POST /v1/tokens: a token makes another, never beyond itself — its actions, its agents, its
// expiry, and the role its creator has in the team now. The new token is recorded as made by the
// same person, so it stays bounded by their role as the first one is (authenticate-bearer.ts).
import type { PrismaClient } from "@prisma/client";
import type { Caller } from "@/server/auth/principal";
import { AppError } from "@/server/errors";
import { findTeamOfUser } from "@/server/teams/find-teams-of-user";
import { roleGrants } from "@/shared/roles";
import { createToken } from "./create-token";
import { tokenIdOf } from "./get-caller-identity";
import type { CreateTokenBody } from "./schema";
import { grants, type TokenAction, tokenActions } from "./scopes";

export async function createTokenAsCaller(options: {
  db: PrismaClient;
  caller: Caller;
  body: CreateTokenBody;
  now?: Date;
}) {
  const { db, caller, body, now = new Date() } = options;
  const tokenId = tokenIdOf(caller);
  if (!tokenId)
    throw new AppError("forbidden", "tokens are made with a token here; signed in, use the dashboard's Tokens page");
  const parent = await db.apiToken.findUniqueOrThrow({
    where: { id: tokenId },
    select: { teamId: true, actions: true, agentSlugs: true, expiresAt: true, createdById: true },
  });
  if (!grants(parent.actions, "tokens:write"))
    throw new AppError("forbidden", "this token may not make tokens (tokens:write)");
  const wanted: TokenAction[] = body.actions.includes("*") ? [...tokenActions] : (body.actions as TokenAction[]);
  const beyond =
    body.actions.includes("*") && !parent.actions.includes("*")
      ? ["*"]
      : wanted.filter((a) => !grants(parent.actions, a));
  if (beyond.length > 0) throw new AppError("forbidden", `this token cannot grant ${beyond.join(", ")}`);
  if (parent.createdById) {
    const creator = await db.user.findUnique({
      where: { id: parent.createdById },
      select: { id: true, isInstanceAdmin: true },
    });
    const team = creator && (await findTeamOfUser({ db, user: creator, team: { id: parent.teamId } }));
    if (!team) throw new AppError("forbidden", "whoever made this token is no longer in its team");
    const overRole = wanted.filter((a) => !roleGrants(team.role, a));
    if (overRole.length > 0)
      throw new AppError("forbidden", `as ${team.role}, this token's maker cannot grant ${overRole.join(", ")}`);
  }
  const agentSlugs = body.agents.length > 0 ? body.agents : parent.agentSlugs;
  const outside = parent.agentSlugs.length > 0 ? agentSlugs.filter((s) => !parent.agentSlugs.includes(s)) : [];
  if (outside.length > 0) throw new AppError("forbidden", `this token cannot reach ${outside.join(", ")}`);
  const asked = body.expiresInDays ? new Date(now.getTime() + body.expiresInDays * 86_400_000) : undefined;
  if (parent.expiresAt && asked && asked > parent.expiresAt)
    throw new AppError("forbidden", `a token cannot outlive the one that makes it (${parent.expiresAt.toISOString()})`);
  const expiresAt = asked ?? parent.expiresAt ?? undefined;
  const created = await createToken({
    db,
    teamId: parent.teamId,
    name: body.name,
    actions: body.actions,
    agentSlugs,
    expiresAt,
    createdById: parent.createdById ?? undefined,
  });
  return {
    ok: true as const,
    ...created,
    name: body.name,
    actions: body.actions,
    agents: agentSlugs,
    expiresAt: expiresAt?.toISOString() ?? null,
  };
}
