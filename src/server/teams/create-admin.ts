// Headless bootstrap: the first user (or another admin) with a password, and a team they own.
import type { PrismaClient } from "@prisma/client";
import { hashPassword } from "@/server/auth/password";
import { AppError } from "@/server/errors";
import { slugProblem } from "@/agents/loader/names";

export async function createAdmin(options: {
  db: PrismaClient;
  email: string;
  password: string;
  teamSlug: string;
  teamName?: string;
}): Promise<{ userId: string; teamId: string }> {
  const { db, email, password, teamSlug, teamName = teamSlug } = options;
  if (password.length < 10) throw new AppError("invalid_input", "the password must be at least 10 characters");
  const problem = slugProblem(teamSlug);
  if (problem) throw new AppError("invalid_input", problem.replace(/^slug/, "team slug"));
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    const user = await tx.user.upsert({
      where: { email },
      create: { email, passwordHash, isInstanceAdmin: true },
      update: { passwordHash, isInstanceAdmin: true },
      select: { id: true },
    });
    const existing = await tx.team.findUnique({ where: { slug: teamSlug }, select: { id: true } });
    const team = existing ?? (await tx.team.create({ data: { slug: teamSlug, name: teamName }, select: { id: true } }));
    await tx.membership.upsert({
      where: { teamId_userId: { teamId: team.id, userId: user.id } },
      create: { teamId: team.id, userId: user.id, role: "owner" },
      update: { role: "owner" },
    });
    return { userId: user.id, teamId: team.id };
  });
}
