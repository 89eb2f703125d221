import * as restate from "@restatedev/restate-sdk";

/** Answers through Restate's ingress: proves the whole path ingress → Restate → worker works. */
export const healthService = restate.service({
  name: "health",
  handlers: {
    check: async (ctx: restate.Context): Promise<{ ok: true; at: string }> => {
      const at = await ctx.run("now", () => new Date().toISOString());
      return { ok: true, at };
    },
  },
});
