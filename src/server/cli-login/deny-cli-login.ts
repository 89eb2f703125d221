// A signed-in person refuses a login they did not start: its CLI is told, and the code is spent.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";

export async function denyCliLogin({ db, code, now = new Date() }: { db: PrismaClient; code: string; now?: Date }) {
  const { count } = await db.cliLogin.updateMany({
    where: { code, approvedAt: null, deniedAt: null, expiresAt: { gt: now } },
    data: { deniedAt: now },
  });
  if (count === 0) throw new AppError("conflict", `the code ${code} has expired or was already used`);
  return { code };
}
