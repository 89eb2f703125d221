// Email and password sign-in. Every failure says the same thing (no hint whether the email
// exists) and counts toward the rate limit; the hash is compared even for unknown emails, so the
// time taken does not tell either.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";
import { hashPassword, verifyPassword } from "./password";
import { assertSignInAllowed, clearSignInFailures, recordSignInFailure } from "./sign-in-limits";

export type SignedInUser = { id: string; email: string; name: string | null };

let decoyHash: Promise<string> | undefined;

export async function signInWithPassword(options: {
  db: PrismaClient;
  email: string;
  password: string;
  ip?: string;
}): Promise<SignedInUser> {
  const { db, password, ip } = options;
  const email = options.email.trim().toLowerCase();
  await assertSignInAllowed({ db, keys: { email, ip } });
  // Counted before the slow compare, so parallel guesses cannot all slip under the limit; a
  // success clears the count again.
  await recordSignInFailure({ db, keys: { email, ip } });
  const user = await db.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
  decoyHash ??= hashPassword("decoy-password-for-timing");
  const isValid = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
  if (!user?.passwordHash || !isValid) throw new AppError("unauthorized", "wrong email or password");
  await clearSignInFailures({ db, email });
  return { id: user.id, email: user.email!, name: user.name };
}
