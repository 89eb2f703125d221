// An external sign-in (GitHub, OIDC) reaches an Agentfold user: the account it was linked to
// before, else the user with the same email (the provider vouches for it), else — only while the
// instance is empty — a new first user. Anyone else needs an invite and a password account first.
import type { PrismaClient } from "@prisma/client";
import { createTeam } from "@/server/teams/create-team";

export async function linkExternalAccount(options: {
  db: PrismaClient;
  provider: string;
  providerAccountId: string;
  email?: string | null;
  name?: string | null;
}): Promise<{ userId: string } | null> {
  const { db, provider, providerAccountId, name } = options;
  const existing = await db.account.findUnique({ where: { provider_providerAccountId: { provider, providerAccountId } }, select: { userId: true } });
  if (existing) return existing;
  const email = options.email?.trim().toLowerCase();
  if (!email) return null;
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('agentfold:sign-up'))`;
    let user = await tx.user.findUnique({ where: { email }, select: { id: true } });
    if (!user) {
      if ((await tx.user.count()) > 0) return null;
      user = await tx.user.create({ data: { email, name: name ?? null, isInstanceAdmin: true }, select: { id: true } });
      await createTeam({ db: tx, name: `${name ?? email.split("@")[0]}'s team`, ownerId: user.id });
    }
    await tx.account.create({ data: { userId: user.id, type: "oauth", provider, providerAccountId } });
    return { userId: user.id };
  });
}
