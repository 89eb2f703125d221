// tRPC: bearer tokens. Anyone in a team may create a token for what their own role allows (a
// viewer's token can only read); admins see and revoke every token of the team, others their own.
import { AppError } from "@/server/errors";
import { isAtLeast, roleGrants } from "@/shared/roles";
import { router, teamProcedure } from "@/server/trpc/init";
import { createToken } from "./create-token";
import { findTokens } from "./find-tokens";
import { revokeToken } from "./revoke-token";
import {
  createdTokenSchema,
  createTokenInputSchema,
  noResultSchema,
  revokeTokenInputSchema,
  tokenListSchema,
  type CreatedToken,
} from "./schema";

export const tokensRouter = router({
  list: teamProcedure("viewer")
    .output(tokenListSchema)
    .query(({ ctx }) =>
      findTokens({
        db: ctx.db,
        teamId: ctx.team.id,
        createdById: isAtLeast(ctx.team.role, "admin") ? undefined : ctx.userId,
      }),
    ),
  create: teamProcedure("viewer")
    .input(createTokenInputSchema)
    .output(createdTokenSchema)
    .mutation(async ({ ctx, input }): Promise<CreatedToken> => {
      const beyond = input.actions.filter((action) => !roleGrants(ctx.team.role, action));
      if (beyond.length > 0)
        throw new AppError("forbidden", `as ${ctx.team.role} you cannot grant ${beyond.join(", ")}`);
      const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : undefined;
      const created = await createToken({
        db: ctx.db,
        teamId: ctx.team.id,
        name: input.name,
        actions: input.actions,
        agentSlugs: input.agentSlugs,
        expiresAt,
        createdById: ctx.userId,
      });
      return { ...created, expiresAt: expiresAt ?? null };
    }),
  revoke: teamProcedure("viewer")
    .input(revokeTokenInputSchema)
    .output(noResultSchema)
    .mutation(async ({ ctx, input }) => {
      await revokeToken({
        db: ctx.db,
        teamId: ctx.team.id,
        tokenId: input.tokenId,
        onlyCreatedBy: isAtLeast(ctx.team.role, "admin") ? undefined : ctx.userId,
      });
    }),
});
