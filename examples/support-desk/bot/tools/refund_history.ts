import { defineTool } from "agentfold/tools";
import { z } from "zod";
import { refundsOf } from "../lib/refunds";

export default defineTool({
  description: "The refunds issued for an order so far (kept in the agent's kv by issue_refund).",
  inputSchema: z.object({ orderId: z.string().regex(/^A-\d+$/) }),
  effect: "read",
  async execute({ orderId }, ctx) {
    const refunds = ctx.host ? await refundsOf(ctx.host.kv, orderId) : [];
    return { orderId, count: refunds.length, refunds };
  },
});
