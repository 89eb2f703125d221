import { defineTool } from "agentfold/tools";
import { z } from "zod";
import { markRefunded } from "../lib/orders";
import { recordRefund } from "../lib/refunds";

export default defineTool({
  description: "Refunds an order in full. A person must approve every refund.",
  inputSchema: z.object({ orderId: z.string(), reason: z.string().min(3) }),
  effect: "write",
  needsApproval: true,
  async execute({ orderId, reason }, ctx) {
    const order = markRefunded(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    const approvedBy = ctx.approvedBy ?? null;
    const refundsOfOrder = ctx.host
      ? await recordRefund(ctx.host.kv, orderId, {
          amount: order.total,
          reason,
          at: new Date().toISOString(),
          approvedBy,
        })
      : 1;
    return { refunded: order.id, amount: order.total, reason, approvedBy, refundsOfOrder };
  },
});
