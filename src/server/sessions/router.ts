// tRPC: sessions for the dashboard. The playground itself uses /v1, like any client.
import { z } from "zod";
import { authedProcedure, router } from "@/server/trpc/init";
import { findRecentSessions } from "./find-recent-sessions";

export const sessionsRouter = router({
  recent: authedProcedure
    .input(z.object({ limit: z.number().int().min(1).max(50).default(10) }))
    .query(({ ctx, input }) => findRecentSessions({ db: ctx.db, userId: ctx.userId, limit: input.limit })),
});
