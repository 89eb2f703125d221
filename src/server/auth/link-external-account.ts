// An external sign-in (GitHub, OIDC) reaches an Agentfold user: the account it was linked to
// before, else the user with the same email (the provider vouches for it), else — only while the
// instance is empty — a new first user. Anyone else needs an invite and a password account first.
import type { PrismaClient } from "@prisma/client";
import { createFirstAccount, lockSignUps } from "./sign-up";

export async function linkExternalAccount(options: {
  db: PrismaClient;
  provider: string;
  providerAccountId: string;
  email?: string | null;
  name?: string | null;
}): Promise<{ userId: string } | null> {
  const { db, provider, providerAccountId, name } = options;
  const existing = await db.account.findUnique({
    where: { provider_providerAccountId: { provider, providerAccountId } },
    select: { userId: true },
  });
  if (existing) return existing;
  const email = options.email?.trim().toLowerCase();
  if (!email) return null;
  return db.$transaction(async (tx) => {
    await lockSignUps(tx);
    let userId = (await tx.user.findUnique({ where: { email }, select: { id: true } }))?.id;
    if (!userId) {
      if ((await tx.user.count()) > 0) return null;
      userId = (await createFirstAccount(tx, { email, name: name ?? null })).userId;
    }
    await tx.account.create({ data: { userId, type: "oauth", provider, providerAccountId } });
    return { userId };
  });
}
