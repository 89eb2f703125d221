import { defineArtifacts } from "agentfold/artifacts";
import { z } from "zod";

export default defineArtifacts({
  kinds: {
    refund: { description: "A refund that was issued", schema: z.object({ orderId: z.string(), amount: z.number() }) },
  },
  agentTool: true,
});
