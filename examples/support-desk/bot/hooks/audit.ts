import { defineHook } from "agentfold/hooks";

export default defineHook({
  events: {
    "turn.completed": async (_event, ctx) => {
      console.log(`turn completed in session ${ctx.session.id}`);
    },
  },
});
