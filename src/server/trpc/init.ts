// tRPC for the dashboard. Procedures are thin: they check who is asking, then call one service.
// Team procedures resolve `teamSlug` from the input to the caller's role in that team and refuse
// a role below the procedure's least role — on the server, whatever the UI shows.
import type { PrismaClient, Role } from "@prisma/client";
import { initTRPC, TRPCError } from "@trpc/server";
import { AppError, type ErrorCode } from "@/server/errors";
import { toAppError } from "@/server/http/to-app-error";
import { refusedValueCode } from "@/server/http/refused-value";
import { findTeamOfUser } from "@/server/teams/find-teams-of-user";
import { isAtLeast } from "@/shared/roles";
import { teamInputSchema } from "@/server/teams/schema";

export type Context = { db: PrismaClient; userId: string | null; isCrossSite: boolean; origin: string };

const trpcCodes: Partial<Record<number, TRPCError["code"]>> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

const t = initTRPC.context<Context>().create({
  // The dashboard's half of the error mapping (the route helper is the other): our code and
  // message reach the client, stacks never do.
  errorFormatter({ shape, error }) {
    const cause = error.cause instanceof AppError ? error.cause : undefined;
    const code: ErrorCode =
      cause?.code ??
      (error.code === "BAD_REQUEST"
        ? "invalid_input"
        : error.code === "INTERNAL_SERVER_ERROR"
          ? "internal_error"
          : "bad_request");
    const message =
      error.code === "INTERNAL_SERVER_ERROR" && !cause
        ? "something went wrong on the server; try again"
        : shape.message;
    return { message, code: shape.code, data: { code, httpStatus: shape.data.httpStatus } };
  },
});

const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  // A value the database refused (NUL, a lone surrogate) is the input's fault, as on /v1.
  const thrown = result.error.cause;
  const cause = thrown instanceof AppError ? thrown : refusedValueCode(thrown) ? toAppError(thrown) : undefined;
  if (cause)
    throw new TRPCError({ code: trpcCodes[cause.status] ?? "INTERNAL_SERVER_ERROR", message: cause.message, cause });
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapAppErrors);

export const authedProcedure = publicProcedure.use(async ({ ctx, type, next }) => {
  if (!ctx.userId) throw new AppError("unauthorized", "sign in to continue");
  // A valid cookie can outlive its user (deleted by an admin).
  const user = await ctx.db.user.findUnique({
    where: { id: ctx.userId },
    select: { id: true, email: true, name: true, isInstanceAdmin: true },
  });
  if (!user) throw new AppError("unauthorized", "this account no longer exists; sign in again");
  // The sign-in cookie rides along on cross-site requests too: changes must come from our pages.
  if (type === "mutation" && ctx.isCrossSite)
    throw new AppError("forbidden", "cross-site requests cannot use the dashboard sign-in");
  return next({ ctx: { ...ctx, userId: ctx.userId, user } });
});

/** A procedure on one team (input `teamSlug`) for callers with at least `least` role there. */
export function teamProcedure(least: Role) {
  return authedProcedure.input(teamInputSchema).use(async ({ ctx, input, next }) => {
    const team = await findTeamOfUser({ db: ctx.db, user: ctx.user, team: { slug: input.teamSlug } });
    if (!team) throw new AppError("not_found", `no team '${input.teamSlug}' among yours`);
    if (!isAtLeast(team.role, least))
      throw new AppError("forbidden", `this needs the ${least} role in ${team.name}; you are ${team.role}`);
    return next({ ctx: { ...ctx, team } });
  });
}
