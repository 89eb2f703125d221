import { defineHook, type HookContext } from "agentfold/hooks";

// One line per finished or failed turn in the agent's deployment file `audit/turns.jsonl`,
// which the dashboard's agent page lists under "Agent files".
async function audit(status: "completed" | "failed", at: string, ctx: HookContext) {
  const line = {
    at,
    sessionId: ctx.session.id,
    channelId: ctx.session.channelId,
    status,
    title: ctx.session.title ?? null,
  };
  await ctx.host.files.append("audit/turns.jsonl", `${JSON.stringify(line)}\n`, { scope: "deployment" });
}

export default defineHook({
  events: {
    "turn.completed": (event, ctx) => audit("completed", event.at, ctx),
    "turn.failed": (event, ctx) => audit("failed", event.at, ctx),
  },
});
