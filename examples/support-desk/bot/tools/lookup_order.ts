import { defineTool } from "@cursor/bdk/tools";
import { z } from "zod";
import { findOrder } from "../lib/orders";

export default defineTool({
  description: "Looks up an order by its id (like A-1001).",
  inputSchema: z.object({ orderId: z.string().regex(/^A-\d+$/) }),
  outputSchema: z.object({ found: z.boolean(), order: z.unknown().optional() }),
  effect: "read",
  async execute({ orderId }) {
    const order = findOrder(orderId);
    // Shows in the agent's logs (the playground's Logs tab), with the session and this tool.
    console.log(`lookup_order ${orderId}: ${order ? order.status : "not found"}`);
    return order ? { found: true, order } : { found: false };
  },
});
