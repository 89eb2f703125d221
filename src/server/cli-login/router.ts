// tRPC: the dashboard's /cli-login page. Any signed-in person may look a code up and approve it
// for a team of theirs (the token gets only what their role there allows) or deny it.
import { authedProcedure, router } from "@/server/trpc/init";
import { approveCliLogin } from "./approve-cli-login";
import { denyCliLogin } from "./deny-cli-login";
import { getCliLogin } from "./get-cli-login";
import {
  approveCliLoginInputSchema,
  approvedCliLoginSchema,
  cliLoginCodeInputSchema,
  cliLoginSummarySchema,
  deniedCliLoginSchema,
} from "./schema";

export const cliLoginRouter = router({
  get: authedProcedure
    .input(cliLoginCodeInputSchema)
    .output(cliLoginSummarySchema)
    .query(({ ctx, input }) => getCliLogin({ db: ctx.db, code: input.code })),
  approve: authedProcedure
    .input(approveCliLoginInputSchema)
    .output(approvedCliLoginSchema)
    .mutation(({ ctx, input }) =>
      approveCliLogin({ db: ctx.db, user: ctx.user, code: input.code, teamSlug: input.teamSlug }),
    ),
  deny: authedProcedure
    .input(cliLoginCodeInputSchema)
    .output(deniedCliLoginSchema)
    .mutation(({ ctx, input }) => denyCliLogin({ db: ctx.db, code: input.code })),
});
