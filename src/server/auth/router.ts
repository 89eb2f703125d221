// tRPC: what the sign-in pages need before anyone is signed in.
import { env } from "@/env";
import { publicProcedure, router } from "@/server/trpc/init";
import { providers } from "./auth-options";
import { authStatusSchema, signedUpSchema, signUpInputSchema, type AuthStatus } from "./schema";
import { isInstanceEmpty, signUp } from "./sign-up";

export const authRouter = router({
  status: publicProcedure.output(authStatusSchema).query(async ({ ctx }): Promise<AuthStatus> => {
    return {
      isEmpty: await isInstanceEmpty(ctx.db),
      isSignedIn: ctx.userId !== null,
      providers: providers(env())
        .filter((provider) => provider.id !== "credentials")
        .map((provider) => ({ id: provider.id, name: provider.name })),
    };
  }),
  signUp: publicProcedure
    .input(signUpInputSchema)
    .output(signedUpSchema)
    .mutation(({ ctx, input }) => signUp({ db: ctx.db, ...input })),
});
