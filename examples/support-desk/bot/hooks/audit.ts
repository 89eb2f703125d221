import { defineHook } from "agentfold/hooks";

export default defineHook({
  events: {
    "turn.completed": async (event, ctx) => {
      console.log(`turn completed in session ${ctx.session.id}`);
    },
  },
});
