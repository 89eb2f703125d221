// tRPC: teams, members and invites.
import { AppError } from "@/server/errors";
import { authedProcedure, publicProcedure, router, teamProcedure } from "@/server/trpc/init";
import { hashToken } from "@/server/tokens/token-secret";
import { claimInvite } from "./claim-invite";
import { createInvite } from "./create-invite";
import { createTeam } from "./create-team";
import { findTeamsOfUser } from "./find-teams-of-user";
import { findMembers, removeMember, revokeInvite, setMemberRole } from "./members";
import {
  acceptedInviteSchema,
  createdInviteSchema,
  createdTeamSchema,
  createInviteInputSchema,
  createTeamInputSchema,
  inviteInfoSchema,
  inviteTokenInputSchema,
  membersSchema,
  noResultSchema,
  removeMemberInputSchema,
  revokeInviteInputSchema,
  setRoleInputSchema,
  currentUserSchema,
  teamsOfUserSchema,
  type CreatedInvite,
  type CurrentUser,
  type InviteInfo,
} from "./schema";

export const teamsRouter = router({
  mine: authedProcedure.output(teamsOfUserSchema).query(({ ctx }) => findTeamsOfUser({ db: ctx.db, user: ctx.user })),
  /** Who is signed in, for the navbar. */
  me: authedProcedure.output(currentUserSchema).query(
    ({ ctx }): CurrentUser => ({
      email: ctx.user.email,
      name: ctx.user.name,
      isInstanceAdmin: ctx.user.isInstanceAdmin,
    }),
  ),
  // Only the instance admin opens teams: anyone who could would also mint invites, and invites
  // are the only way in after the first account.
  create: authedProcedure
    .input(createTeamInputSchema)
    .output(createdTeamSchema)
    .mutation(async ({ ctx, input }) => {
      if (!ctx.user.isInstanceAdmin) throw new AppError("forbidden", "only the instance admin can create teams");
      return createTeam({ db: ctx.db, name: input.name, ownerId: ctx.userId });
    }),
  members: teamProcedure("viewer")
    .output(membersSchema)
    .query(({ ctx }) => findMembers({ db: ctx.db, teamId: ctx.team.id })),
  invite: teamProcedure("admin")
    .input(createInviteInputSchema)
    .output(createdInviteSchema)
    .mutation(async ({ ctx, input }): Promise<CreatedInvite> => {
      const invite = await createInvite({
        db: ctx.db,
        teamId: ctx.team.id,
        actorRole: ctx.team.role,
        role: input.role,
        email: input.email,
        createdById: ctx.userId,
      });
      return { url: `${ctx.origin}/signup?invite=${invite.token}`, expiresAt: invite.expiresAt };
    }),
  revokeInvite: teamProcedure("admin")
    .input(revokeInviteInputSchema)
    .output(noResultSchema)
    .mutation(({ ctx, input }) => revokeInvite({ db: ctx.db, teamId: ctx.team.id, inviteId: input.inviteId })),
  setRole: teamProcedure("admin")
    .input(setRoleInputSchema)
    .output(noResultSchema)
    .mutation(({ ctx, input }) =>
      setMemberRole({
        db: ctx.db,
        teamId: ctx.team.id,
        actorRole: ctx.team.role,
        userId: input.userId,
        role: input.role,
      }),
    ),
  removeMember: teamProcedure("admin")
    .input(removeMemberInputSchema)
    .output(noResultSchema)
    .mutation(({ ctx, input }) =>
      removeMember({ db: ctx.db, teamId: ctx.team.id, actorRole: ctx.team.role, userId: input.userId }),
    ),
  /** What an invite link offers, for the sign-up page; reveals nothing without the secret. */
  inviteInfo: publicProcedure
    .input(inviteTokenInputSchema)
    .output(inviteInfoSchema)
    .query(async ({ ctx, input }): Promise<InviteInfo> => {
      const invite = await ctx.db.invite.findUnique({
        where: { tokenHash: hashToken(input.token) },
        select: {
          role: true,
          email: true,
          expiresAt: true,
          acceptedAt: true,
          revokedAt: true,
          team: { select: { name: true } },
        },
      });
      const isOpen = Boolean(invite && !invite.acceptedAt && !invite.revokedAt && invite.expiresAt > new Date());
      return invite && isOpen
        ? { isOpen: true as const, teamName: invite.team.name, role: invite.role, email: invite.email }
        : { isOpen: false as const };
    }),
  /** A signed-in user joins with an invite link. */
  acceptInvite: authedProcedure
    .input(inviteTokenInputSchema)
    .output(acceptedInviteSchema)
    .mutation(async ({ ctx, input }) => {
      return ctx.db.$transaction((tx) =>
        claimInvite({ db: tx, token: input.token, userId: ctx.userId, email: ctx.user.email ?? "" }),
      );
    }),
});
