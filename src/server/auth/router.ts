// tRPC: what the sign-in pages need before anyone is signed in.
import { z } from "zod";
import { env } from "@/env";
import { publicProcedure, router } from "@/server/trpc/init";
import { isInstanceEmpty, signUp } from "./sign-up";

export const authRouter = router({
  status: publicProcedure.query(async ({ ctx }) => {
    const config = env();
    return {
      isEmpty: await isInstanceEmpty(ctx.db),
      isSignedIn: ctx.userId !== null,
      providers: [
        ...(config.GITHUB_ID && config.GITHUB_SECRET ? [{ id: "github", name: "GitHub" }] : []),
        ...(config.OIDC_ISSUER && config.OIDC_CLIENT_ID ? [{ id: "oidc", name: config.OIDC_NAME }] : []),
      ],
    };
  }),
  signUp: publicProcedure
    .input(z.object({ email: z.string(), password: z.string(), name: z.string().max(80).optional(), teamName: z.string().max(80).optional(), inviteToken: z.string().optional() }))
    .mutation(({ ctx, input }) => signUp({ db: ctx.db, ...input })),
});
