// tRPC: what the sign-in pages need before anyone is signed in.
import { z } from "zod";
import { env } from "@/env";
import { publicProcedure, router } from "@/server/trpc/init";
import { providers } from "./auth-options";
import { isInstanceEmpty, signUp } from "./sign-up";

export const authRouter = router({
  status: publicProcedure.query(async ({ ctx }) => {
    return {
      isEmpty: await isInstanceEmpty(ctx.db),
      isSignedIn: ctx.userId !== null,
      providers: providers(env())
        .filter((provider) => provider.id !== "credentials")
        .map((provider) => ({ id: provider.id, name: provider.name })),
    };
  }),
  signUp: publicProcedure
    .input(z.object({ email: z.string(), password: z.string(), name: z.string().max(80).optional(), teamName: z.string().max(80).optional(), inviteToken: z.string().optional() }))
    .mutation(({ ctx, input }) => signUp({ db: ctx.db, ...input })),
});
