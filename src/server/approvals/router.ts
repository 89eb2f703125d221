// tRPC: the team approvals inbox. Decisions go through the /v1 route, like any client's.
import { isAtLeast } from "@/shared/roles";
import { router, teamProcedure } from "@/server/trpc/init";
import { findTeamApprovals } from "./find-team-approvals";
import { approvalInboxSchema } from "./schema";

export const approvalsRouter = router({
  inbox: teamProcedure("viewer")
    .output(approvalInboxSchema)
    .query(({ ctx }) =>
      findTeamApprovals({
        db: ctx.db,
        teamId: ctx.team.id,
        ownerId: isAtLeast(ctx.team.role, "admin") ? undefined : ctx.userId,
      }),
    ),
});
