// A login as the approval page shows it, by its code: for signed-in people only (the router).
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";

export type CliLoginRow = {
  approvedAt: Date | null;
  deniedAt: Date | null;
  collectedAt: Date | null;
  expiresAt: Date;
};

export function loginStatus(row: CliLoginRow, now: Date) {
  if (row.collectedAt) return "collected" as const;
  if (row.deniedAt) return "denied" as const;
  if (row.expiresAt <= now) return "expired" as const;
  return row.approvedAt ? ("approved" as const) : ("pending" as const);
}

export async function getCliLogin({ db, code, now = new Date() }: { db: PrismaClient; code: string; now?: Date }) {
  const row = await db.cliLogin.findUnique({
    where: { code },
    select: {
      code: true,
      hostname: true,
      createdAt: true,
      expiresAt: true,
      approvedAt: true,
      deniedAt: true,
      collectedAt: true,
    },
  });
  if (!row) throw new AppError("not_found", `no login is waiting for the code ${code}; run agentfold login again`);
  return {
    code: row.code,
    hostname: row.hostname,
    status: loginStatus(row, now),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}
