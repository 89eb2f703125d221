// GET /v1/whoami: who a request's credential is — a token (its team, name, prefix, actions,
// agents, expiry, creator) or a signed-in person (their teams). Never a secret.
import type { PrismaClient } from "@prisma/client";
import type { Caller } from "@/server/auth/principal";
import { AppError } from "@/server/errors";
import { findTeamsOfUser } from "@/server/teams/find-teams-of-user";
import type { CallerIdentity } from "./schema";

/** The token id of a token's caller (`token:<id>`), else undefined. */
export function tokenIdOf(caller: Caller): string | undefined {
  const { kind, id } = caller.principal;
  return kind === "app" && id.startsWith("token:") ? id.slice("token:".length) : undefined;
}

export async function getCallerIdentity({ db, caller }: { db: PrismaClient; caller: Caller }): Promise<CallerIdentity> {
  const tokenId = tokenIdOf(caller);
  if (tokenId) {
    const token = await db.apiToken.findUnique({
      where: { id: tokenId },
      select: {
        name: true,
        prefix: true,
        actions: true,
        agentSlugs: true,
        expiresAt: true,
        createdAt: true,
        team: { select: { slug: true, name: true } },
        createdBy: { select: { email: true } },
      },
    });
    if (!token) throw new AppError("unauthorized", "unknown token");
    return {
      ok: true,
      kind: "token",
      team: token.team,
      token: {
        name: token.name,
        prefix: token.prefix,
        actions: token.actions,
        agents: token.agentSlugs,
        expiresAt: token.expiresAt?.toISOString() ?? null,
        createdAt: token.createdAt.toISOString(),
        createdBy: token.createdBy?.email ?? null,
      },
    };
  }
  if (caller.principal.kind !== "user") throw new AppError("unauthorized", "send Authorization: Bearer <token>");
  const user = await db.user.findUnique({
    where: { id: caller.principal.id },
    select: { id: true, email: true, name: true, isInstanceAdmin: true },
  });
  if (!user) throw new AppError("unauthorized", "this account no longer exists; sign in again");
  const teams = await findTeamsOfUser({ db, user });
  return {
    ok: true,
    kind: "user",
    user: { email: user.email, name: user.name },
    teams: teams.map(({ slug, name, role }) => ({ slug, name, role })),
  };
}
