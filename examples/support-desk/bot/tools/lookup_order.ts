import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
import { findOrder } from "../lib/orders";
import { refundsOf } from "../lib/refunds";

export default defineTool({
  description: "Looks up an order by its id (like A-1001), with how often it was refunded.",
  inputSchema: z.object({ orderId: z.string().regex(/^A-\d+$/) }),
  outputSchema: z.object({ found: z.boolean(), order: z.unknown().optional(), refunds: z.number().optional() }),
  effect: "read",
  async execute({ orderId }, ctx) {
    const order = findOrder(orderId);
    if (!order) return { found: false };
    const refunds = ctx.host ? (await refundsOf(ctx.host.kv, orderId)).length : 0;
    return { found: true, order, refunds };
  },
});
