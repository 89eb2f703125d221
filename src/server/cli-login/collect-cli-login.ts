// The CLI's poll, with its secret: pending, denied or expired, or — once — the token of an
// approved login. Minting it here (and not on approval) means no token secret is ever stored.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";
import { findTeamOfUser } from "@/server/teams/find-teams-of-user";
import { createToken } from "@/server/tokens/create-token";
import { isTokenAction } from "@/server/tokens/scopes";
import { roleGrants } from "@/shared/roles";
import { loginStatus } from "./get-cli-login";
import { type CollectedCliLogin, loginTokenDays } from "./schema";
import { hashLoginSecret } from "./start-cli-login";

export async function collectCliLogin(options: {
  db: PrismaClient;
  requestId: string;
  now?: Date;
}): Promise<CollectedCliLogin> {
  const { db, requestId, now = new Date() } = options;
  const secretHash = hashLoginSecret(requestId);
  const row = await db.cliLogin.findUnique({ where: { secretHash } });
  if (!row) throw new AppError("not_found", "no such login request (it may have expired); run agentfold login again");
  const status = loginStatus(row, now);
  if (status === "collected") throw new AppError("conflict", "this login's token was already collected");
  if (status !== "approved") return { ok: true, status };
  const approver = await db.user.findUnique({
    where: { id: row.approvedById ?? "" },
    select: { id: true, isInstanceAdmin: true },
  });
  // The approver's role now, not at approval: a member removed in between gets nothing.
  const team = approver && (await findTeamOfUser({ db, user: approver, team: { id: row.teamId ?? "" } }));
  const actions = row.actions.filter((a) => isTokenAction(a) && team && roleGrants(team.role, a));
  return db.$transaction(async (tx) => {
    // Exactly once: of two polls racing, only one sets collectedAt.
    const { count } = await tx.cliLogin.updateMany({
      where: { secretHash, collectedAt: null },
      data: { collectedAt: now },
    });
    if (count === 0) throw new AppError("conflict", "this login's token was already collected");
    if (!approver || !team || actions.length === 0)
      throw new AppError("forbidden", "the approver may no longer make this token");
    const expiresAt = new Date(now.getTime() + loginTokenDays * 86_400_000);
    const created = await createToken({
      db: tx,
      teamId: team.id,
      name: `cli on ${row.hostname}`,
      actions,
      expiresAt,
      createdById: approver.id,
    });
    return {
      ok: true as const,
      status: "approved" as const,
      token: created.token,
      team: { slug: team.slug, name: team.name },
      actions,
      expiresAt: expiresAt.toISOString(),
    };
  });
}
