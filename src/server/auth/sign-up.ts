// Creating an account. The very first account on the instance becomes instance admin and the
// owner of a new team; after that, accounts are made from an invite link, which sets the team
// and the role. The check for "first" runs under a lock, so two racing sign-ups cannot both
// become admin.
import type { Prisma, PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";
import { createTeam } from "@/server/teams/create-team";
import { claimInvite } from "@/server/teams/claim-invite";
import { hashPassword } from "./password";

export const minPasswordLength = 10;

export async function signUp(options: {
  db: PrismaClient;
  email: string;
  password: string;
  name?: string;
  teamName?: string;
  inviteToken?: string;
}): Promise<{ userId: string; teamSlug: string; isInstanceAdmin: boolean }> {
  const { db, password, inviteToken } = options;
  const email = options.email.trim().toLowerCase();
  const name = options.name?.trim() || null;
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new AppError("invalid_input", "enter a valid email address");
  if (password.length < minPasswordLength)
    throw new AppError("invalid_input", `the password must be at least ${minPasswordLength} characters`);
  // Without an invite there is nothing to try once the first account exists: refuse before the
  // slow hash, and before saying anything about which emails have accounts.
  if (!inviteToken && !(await isInstanceEmpty(db))) throw closed();
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    await lockSignUps(tx);
    const isFirst = (await tx.user.count()) === 0;
    if (!isFirst && !inviteToken) throw closed();
    if (await tx.user.findUnique({ where: { email }, select: { id: true } })) {
      throw new AppError("conflict", "an account with this email exists; sign in instead");
    }
    if (!inviteToken)
      return {
        ...(await createFirstAccount(tx, { email, name, passwordHash, teamName: options.teamName })),
        isInstanceAdmin: true,
      };
    const user = await tx.user.create({
      data: { email, name, passwordHash, isInstanceAdmin: isFirst },
      select: { id: true },
    });
    const joined = await claimInvite({ db: tx, token: inviteToken, userId: user.id, email });
    return { userId: user.id, teamSlug: joined.teamSlug, isInstanceAdmin: isFirst };
  });
}

/** Serialises account creation for the rest of the transaction: who is first is decided under it. */
export async function lockSignUps(tx: Prisma.TransactionClient): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('agentfold:sign-up'))`;
}

/** The first account (under lockSignUps, with no users yet): instance admin, owner of its team. */
export async function createFirstAccount(
  tx: Prisma.TransactionClient,
  account: { email: string; name: string | null; passwordHash?: string; teamName?: string },
): Promise<{ userId: string; teamSlug: string }> {
  const { email, name } = account;
  const user = await tx.user.create({
    data: { email, name, passwordHash: account.passwordHash ?? null, isInstanceAdmin: true },
    select: { id: true },
  });
  const team = await createTeam({
    db: tx,
    name: account.teamName?.trim() || `${name ?? email.split("@")[0]}'s team`,
    ownerId: user.id,
  });
  return { userId: user.id, teamSlug: team.slug };
}

function closed(): AppError {
  return new AppError("forbidden", "sign-up needs an invite link from a team admin");
}

/** Whether nobody has signed up yet: the sign-in page then offers to create the first account. */
export async function isInstanceEmpty(db: PrismaClient): Promise<boolean> {
  return (await db.user.count()) === 0;
}
