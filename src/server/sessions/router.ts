// tRPC: sessions for the dashboard. The playground itself uses /v1, like any client.
import { authedProcedure, router } from "@/server/trpc/init";
import { findRecentSessions } from "./find-recent-sessions";
import { recentSessionsInputSchema, recentSessionsSchema } from "./schema";

export const sessionsRouter = router({
  recent: authedProcedure
    .input(recentSessionsInputSchema)
    .output(recentSessionsSchema)
    .query(({ ctx, input }) => findRecentSessions({ db: ctx.db, userId: ctx.userId, limit: input.limit })),
});
