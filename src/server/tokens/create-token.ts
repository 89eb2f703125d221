// Creates a team bearer token. The plaintext is returned once and never stored.
import type { PrismaClient } from "@prisma/client";
import { AppError } from "@/server/errors";
import { isTokenAction } from "./scopes";
import { newTokenSecret } from "./token-secret";

export async function createToken(options: {
  /** A transaction's client will do: only apiToken is used. */
  db: Pick<PrismaClient, "apiToken">;
  teamId: string;
  name: string;
  actions: string[];
  agentSlugs?: string[];
  expiresAt?: Date;
  createdById?: string;
}): Promise<{ id: string; token: string; prefix: string }> {
  const { db, teamId, name, actions, agentSlugs = [], expiresAt, createdById } = options;
  const unknown = actions.filter((a) => a !== "*" && !isTokenAction(a));
  if (unknown.length > 0) throw new AppError("invalid_input", `unknown token actions: ${unknown.join(", ")}`);
  if (actions.length === 0) throw new AppError("invalid_input", "a token needs at least one action");
  const secret = newTokenSecret();
  const row = await db.apiToken.create({
    data: { teamId, name, tokenHash: secret.hash, prefix: secret.prefix, actions, agentSlugs, expiresAt, createdById },
    select: { id: true },
  });
  return { id: row.id, token: secret.token, prefix: secret.prefix };
}
