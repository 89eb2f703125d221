// A new team, owned by the user who creates it (or by nobody yet, for headless bootstrap).
import crypto from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";
import { slugProblem } from "@/agents/loader/names";
import { AppError } from "@/server/errors";

type Tx = Prisma.TransactionClient | PrismaClient;

/** A slug from a name: lowercase words joined by dashes; a short suffix when it is taken. */
async function freeTeamSlug(tx: Tx, name: string): Promise<string> {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "team";
  const candidate = slugProblem(base) ? `team-${base}` : base;
  const taken = await tx.team.findUnique({ where: { slug: candidate }, select: { id: true } });
  return taken ? `${candidate}-${crypto.randomBytes(2).toString("hex")}` : candidate;
}

export async function createTeam(options: {
  db: Tx;
  name: string;
  slug?: string;
  ownerId?: string;
}): Promise<{ id: string; slug: string }> {
  const { db, ownerId } = options;
  const name = options.name.trim();
  if (!name) throw new AppError("invalid_input", "a team needs a name");
  const slug = options.slug ?? (await freeTeamSlug(db, name));
  const problem = slugProblem(slug);
  if (problem) throw new AppError("invalid_input", problem.replace(/^slug/, "team slug"));
  if (await db.team.findUnique({ where: { slug }, select: { id: true } }))
    throw new AppError("conflict", `the team slug '${slug}' is taken`);
  const team = await db.team.create({ data: { slug, name }, select: { id: true, slug: true } });
  if (ownerId) await db.membership.create({ data: { teamId: team.id, userId: ownerId, role: "owner" } });
  return team;
}
