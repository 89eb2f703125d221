// Rate limit for password sign-ins: failed attempts are counted per email and per client address
// over a sliding window, in Postgres so every web instance shares the count.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";

const signInWindowMs = 15 * 60_000;
const limits = { email: 5, ip: 30 } as const;

export type SignInKeys = { email: string; ip?: string };

function keysOf({ email, ip }: SignInKeys): { key: string; limit: number }[] {
  const keys: { key: string; limit: number }[] = [{ key: `email:${email.toLowerCase()}`, limit: limits.email }];
  if (ip) keys.push({ key: `ip:${ip}`, limit: limits.ip });
  return keys;
}

export async function assertSignInAllowed(options: { db: PrismaClient; keys: SignInKeys; now?: Date }): Promise<void> {
  const { db, keys, now = new Date() } = options;
  const since = new Date(now.getTime() - signInWindowMs);
  for (const { key, limit } of keysOf(keys)) {
    const failures = await db.signInFailure.findMany({
      where: { key, at: { gt: since } },
      select: { at: true },
      orderBy: { at: "asc" },
    });
    if (failures.length >= limit) {
      const retryAt = failures[failures.length - limit]!.at.getTime() + signInWindowMs;
      const minutes = Math.max(1, Math.ceil((retryAt - now.getTime()) / 60_000));
      throw new AppError(
        "rate_limited",
        `too many failed sign-ins; try again in ${minutes} minute${minutes === 1 ? "" : "s"}`,
      );
    }
  }
}

export async function recordSignInFailure(options: { db: PrismaClient; keys: SignInKeys; now?: Date }): Promise<void> {
  const { db, keys, now = new Date() } = options;
  const entries = keysOf(keys);
  await db.$transaction([
    db.signInFailure.deleteMany({
      where: { key: { in: entries.map((e) => e.key) }, at: { lt: new Date(now.getTime() - signInWindowMs) } },
    }),
    db.signInFailure.createMany({ data: entries.map(({ key }) => ({ key, at: now })) }),
  ]);
}

/** A successful sign-in forgives the account's failures (not the address's). */
export async function clearSignInFailures({ db, email }: { db: PrismaClient; email: string }): Promise<void> {
  await db.signInFailure.deleteMany({ where: { key: `email:${email.toLowerCase()}` } });
}
